// Finding the runs in an aider history file (each opens with `# aider chat started at …`) and
// reading one run's bytes, both as streams: the file is appended to for as long as the repo is used.
import { closeSync, readSync } from 'node:fs';
import { openRegularSync } from '../../fs/read-open.js';

export const runHeader = '# aider chat started at ';
const marker = Buffer.from(`\n${runHeader}`);
const chunkBytes = 1 << 20;
/** One run above this is read clipped to it (and reported): aider never rotates the file. */
export const maxRunBytes = 64 * 1024 * 1024;

export interface RunStart {
  /** Byte offset of the header line. */
  offset: number;
  /** `YYYY-MM-DD HH:MM:SS` as aider wrote it (local time). */
  stamp: string;
}

function stampAt(buf: Buffer, at: number): string {
  return buf.toString('utf8', at, Math.min(buf.length, at + 19));
}

/** Every run header in the file, in order. */
export function findRuns(path: string): { runs: RunStart[]; size: number } {
  const { fd, size } = openRegularSync(path);
  try {
    const runs: RunStart[] = [];
    const buf = Buffer.allocUnsafe(chunkBytes + marker.length + 32);
    // The file starts with "\n# aider…" when aider wrote it; a file cut at its start may not.
    let carry = Buffer.from('\n');
    let pos = 0;
    for (;;) {
      carry.copy(buf, 0);
      const got = readSync(fd, buf, carry.length, chunkBytes, pos);
      const end = carry.length + got;
      const view = buf.subarray(0, end);
      const base = pos - carry.length;
      for (let i = view.indexOf(marker); i !== -1; i = view.indexOf(marker, i + 1)) {
        const headerAt = i + 1;
        const stampFrom = headerAt + runHeader.length;
        if (stampFrom + 19 > end && got > 0) break; // finished with the next chunk
        const offset = base + headerAt;
        if (runs.at(-1)?.offset !== offset) runs.push({ offset, stamp: stampAt(view, stampFrom) });
      }
      if (got === 0) break;
      pos += got;
      carry = Buffer.from(view.subarray(Math.max(0, end - marker.length - 20)));
    }
    return { runs, size };
  } finally {
    closeSync(fd);
  }
}

/**
 * The run that starts at `offset`: its text up to the next run header (or the end of the file), at
 * most `maxRunBytes`. Read once, in chunks that grow from 64 KiB, so a short run costs a short read.
 */
export function readRun(path: string, offset: number): { text: string; clipped: boolean } {
  const { fd } = openRegularSync(path);
  try {
    const parts: Buffer[] = [];
    let total = 0;
    let tail: Buffer = Buffer.alloc(0);
    let size = 64 * 1024;
    for (;;) {
      const chunk = Buffer.allocUnsafe(size);
      const got = readSync(fd, chunk, 0, size, offset + total);
      if (got === 0) break;
      const data = chunk.subarray(0, got);
      // The run's own header has no newline before it inside the run, so it never matches.
      const edge = tail.length === 0 ? -1 : Buffer.concat([tail, data.subarray(0, marker.length - 1)]).indexOf(marker);
      const inside = edge === -1 ? data.indexOf(marker) : -1;
      if (edge !== -1 || inside !== -1) {
        // Where the next header's newline lies from this chunk's start: negative when it lies in the
        // chunk before (-1, that chunk's last byte, is a place there, not "not found").
        const at = edge !== -1 ? edge - tail.length : inside;
        // Keep the newline that ends the run's last line (it may lie in the chunk before).
        if (at + 1 >= 0) parts.push(data.subarray(0, at + 1));
        else {
          const last = parts.pop() ?? Buffer.alloc(0);
          parts.push(last.subarray(0, last.length + at + 1));
        }
        break;
      }
      parts.push(data);
      total += got;
      if (total >= maxRunBytes) return { text: Buffer.concat(parts).subarray(0, maxRunBytes).toString('utf8'), clipped: true };
      tail = Buffer.from(data.subarray(Math.max(0, got - (marker.length - 1))));
      size = Math.min(size * 2, chunkBytes * 4);
    }
    const whole = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    return { text: whole.toString('utf8'), clipped: false };
  } finally {
    closeSync(fd);
  }
}
