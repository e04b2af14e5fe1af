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

/** Where the run starting at `offset` ends: the next header line, else the end of the file. */
function runEnd(fd: number, offset: number): number {
  const buf = Buffer.allocUnsafe(chunkBytes);
  let tail = Buffer.alloc(0);
  let pos = offset;
  for (;;) {
    const got = readSync(fd, buf, 0, chunkBytes, pos);
    if (got === 0) return pos;
    // The run's own header is not preceded by a newline inside the run, so it never matches.
    const window = Buffer.concat([tail, buf.subarray(0, got)]);
    const at = window.indexOf(marker);
    if (at !== -1) return pos - tail.length + at + 1;
    tail = Buffer.from(window.subarray(Math.max(0, window.length - marker.length + 1)));
    pos += got;
  }
}

/** The run that starts at `offset`: its text up to the next run header, at most `maxRunBytes`. */
export function readRun(path: string, offset: number): { text: string; clipped: boolean; end: number } {
  const { fd } = openRegularSync(path);
  try {
    const end = runEnd(fd, offset);
    const length = Math.min(end - offset, maxRunBytes);
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return { text: buf.toString('utf8', 0, got), clipped: end - offset > maxRunBytes, end };
  } finally {
    closeSync(fd);
  }
}
