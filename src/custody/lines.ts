// Line reading for custody: forward from a line start, and backward from the end in blocks (so a
// tail of an 87 MB transcript reads a few blocks, not the file). Only newline-terminated lines are
// given: a final line still being written is left for the next read. Lines split on the byte 0x0A,
// which never occurs inside a UTF-8 sequence, so each line decodes on its own.
import type { FileHandle } from 'node:fs/promises';
import { custodyErrors } from './errors.js';
import { readFull } from './safe-fs.js';

export interface Line {
  offset: number;
  /** Bytes before the newline (a trailing `\r` included). The next line starts at offset + bytes + 1. */
  bytes: number;
  /** The decoded text without a trailing `\r`; null when the line is over the holding bound. */
  text: string | null;
}

export interface LineBounds {
  /** Lines longer than this are given with `text: null`. */
  maxLineBytes: number;
  chunkBytes?: number;
}

function decode(pieces: Buffer[]): string {
  const text = (pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces)).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** The complete lines of `[start, end)`, in order; `start` must be a line start. */
export async function* forwardLines(handle: FileHandle, start: number, end: number, bounds: LineBounds): AsyncGenerator<Line> {
  const chunk = Buffer.allocUnsafe(bounds.chunkBytes ?? 1 << 20);
  let pos = start;
  let lineStart = start;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let oversized = false;
  while (pos < end) {
    const n = await readFull(handle, chunk, Math.min(chunk.length, end - pos), pos);
    if (n === 0) break;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl === -1 || nl >= n) {
        const piece = n - from;
        if (!oversized && pendingBytes + piece > bounds.maxLineBytes) {
          oversized = true;
          pending = [];
        }
        if (!oversized && piece > 0) pending.push(Buffer.from(chunk.subarray(from, n)));
        pendingBytes += piece;
        break;
      }
      const bytes = pendingBytes + (nl - from);
      let text: string | null = null;
      if (!oversized && bytes <= bounds.maxLineBytes) {
        pending.push(chunk.subarray(from, nl));
        text = decode(pending);
      }
      yield { offset: lineStart, bytes, text };
      lineStart += bytes + 1;
      pending = [];
      pendingBytes = 0;
      oversized = false;
      from = nl + 1;
    }
    pos += n;
  }
}

export interface BackwardOptions extends LineBounds {
  blockBytes?: number;
  /** A line whose start is not found within this many bytes makes the file CorruptTranscript. */
  scanBudgetBytes: number;
  /** Which lines count toward `want` (blank lines do not). */
  counts?: (line: Line) => boolean;
  /** For error messages. */
  path: string;
}

export interface BackwardResult {
  /** Oldest first. */
  lines: Line[];
  /** True when the first line of the file was reached (there is nothing older). */
  reachedStart: boolean;
  /** Just past the last newline before `end` (0 when there is none): where newer lines will start. */
  completeEnd: number;
}

/**
 * Up to `want` counted complete lines ending at or before `end`, read backward in blocks. Bytes
 * after the last newline before `end` (a torn final line) are excluded.
 */
export async function backwardLines(handle: FileHandle, end: number, want: number, opts: BackwardOptions): Promise<BackwardResult> {
  const block = Buffer.allocUnsafe(opts.blockBytes ?? 64 * 1024);
  const counts = opts.counts ?? (() => true);
  const newestFirst: Line[] = [];
  let counted = 0;
  let pos = end;
  /** Offset just past the newline that ends the line being assembled; null while skipping a torn tail. */
  let lineEnd: number | null = null;
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let oversized = false;
  let completeEnd: number | null = null;

  const finish = (lineStart: number): void => {
    const bytes = (lineEnd as number) - 1 - lineStart;
    const text = oversized || bytes > opts.maxLineBytes ? null : decode(pieces.reverse());
    const line: Line = { offset: lineStart, bytes, text };
    newestFirst.push(line);
    if (counts(line)) counted++;
    lineEnd = lineStart;
    pieces = [];
    pieceBytes = 0;
    oversized = false;
  };
  const keep = (piece: Buffer): void => {
    pieceBytes += piece.length;
    if (pieceBytes > opts.scanBudgetBytes) {
      throw custodyErrors.corruptTranscript(
        opts.path,
        `no line break in the ${opts.scanBudgetBytes} bytes before byte ${lineEnd ?? end}, so it is not a line-per-record transcript`,
      );
    }
    if (oversized || pieceBytes > opts.maxLineBytes) {
      oversized = true;
      pieces = [];
    } else if (piece.length > 0) pieces.push(Buffer.from(piece));
  };

  while (pos > 0 && counted < want) {
    const start = Math.max(0, pos - block.length);
    const n = await readFull(handle, block, pos - start, start);
    if (n !== pos - start) throw custodyErrors.io(opts.path, 'read', new Error(`it shrank below ${pos} bytes while being read`));
    let scanEnd = n;
    while (counted < want) {
      const nl = scanEnd === 0 ? -1 : block.lastIndexOf(10, scanEnd - 1);
      if (nl === -1) {
        if (lineEnd !== null) keep(block.subarray(0, scanEnd));
        else if (end - start > opts.scanBudgetBytes) {
          throw custodyErrors.corruptTranscript(
            opts.path,
            `no line break in its last ${opts.scanBudgetBytes} bytes, so it is not a line-per-record transcript`,
          );
        }
        break;
      }
      if (lineEnd === null) {
        lineEnd = start + nl + 1;
        completeEnd = lineEnd;
      } else {
        keep(block.subarray(nl + 1, scanEnd));
        finish(start + nl + 1);
      }
      scanEnd = nl;
    }
    pos = start;
  }
  let reachedStart = false;
  if (pos === 0 && counted < want) {
    reachedStart = true;
    if (lineEnd !== null && lineEnd > 0) finish(0);
  }
  if (newestFirst.at(-1)?.offset === 0) reachedStart = true;
  return { lines: newestFirst.reverse(), reachedStart, completeEnd: completeEnd ?? 0 };
}

/** Just past the last newline before `end` (0 when there is none): where a follower starts reading. */
export async function lastLineEnd(handle: FileHandle, end: number, blockBytes = 64 * 1024): Promise<number> {
  const block = Buffer.allocUnsafe(blockBytes);
  for (let pos = end; pos > 0; ) {
    const start = Math.max(0, pos - block.length);
    const n = await readFull(handle, block, pos - start, start);
    const nl = block.lastIndexOf(10, n - 1);
    if (nl !== -1 && n > 0) return start + nl + 1;
    pos = start;
  }
  return 0;
}
