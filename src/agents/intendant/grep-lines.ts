// Finds the lines of a file that contain a marker without decoding the others: discovery uses it
// to read relationship rows out of every log cheaply (bytes are searched, only hits are decoded).
// Reads are synchronous: a byte search is far faster than a promise round trip per chunk.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface GrepOptions {
  /** Lines longer than this are skipped. Default 1 MiB. */
  maxLineBytes?: number;
  chunkBytes?: number;
}

/** The read buffer, kept between calls (never two at once: the grep is synchronous). */
let spare: Buffer | null = null;

const noBytes = Buffer.alloc(0);

/** Calls `onLine` with every line (complete or the unterminated last one) holding `needle`. */
export async function linesContaining(path: string, needle: string, onLine: (line: string) => void, opts: GrepOptions = {}): Promise<void> {
  const mark = Buffer.from(needle, 'utf8');
  const maxLine = opts.maxLineBytes ?? 1 << 20;
  const fd = openSync(path, 'r');
  try {
    // A buffer no bigger than the file: most logs are far smaller than the 1 MiB default.
    const want = opts.chunkBytes ?? Math.min(1 << 20, Math.max(64 * 1024, fstatSync(fd).size + 1));
    // Discovery greps every log in turn: one buffer serves them all (a fresh one each was
    // external memory the collector counted, and a chunk the OS zeroed).
    if (spare === null || spare.length < want) spare = Buffer.allocUnsafe(want);
    const chunk = spare.subarray(0, want);
    let carry: Buffer = noBytes;
    // Set after dropping a line that outgrew the bound: its rest, up to the next newline, is skipped.
    let skipping = false;
    const hits = (region: Buffer, lastLine: boolean): void => {
      let from = 0;
      for (;;) {
        const at = region.indexOf(mark, from);
        if (at === -1) return;
        const start = region.lastIndexOf(10, at) + 1;
        let end = region.indexOf(10, at);
        if (end === -1) end = region.length;
        if (!(skipping && start === 0) && end - start <= maxLine) onLine(region.toString('utf8', start, end).replace(/\r$/, ''));
        from = end + 1;
        if (lastLine) return;
      }
    };
    let position = 0;
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      const lastNl = buf.lastIndexOf(10);
      if (lastNl === -1) {
        if (buf.length > maxLine) {
          skipping = true;
          carry = noBytes;
        } else carry = Buffer.from(buf);
        continue;
      }
      hits(buf.subarray(0, lastNl), false);
      skipping = false;
      // The unfinished last line (all in this chunk: a carry holds no newline) is read again from
      // its start with the next chunk, not kept and joined to it: that join copied each whole chunk,
      // ~7 ms of a cold scan of the bench home's Intendant logs (two spines over 1 MiB).
      position -= buf.length - (lastNl + 1);
      carry = noBytes;
    }
    if (carry.length > 0 && !skipping) hits(carry, true);
  } finally {
    closeSync(fd);
  }
}
