// Streaming line reader: reads a file in large chunks and hands each line to a callback with its
// byte offset, never holding more than one chunk plus one line in memory.
import { closeSync, readSync } from 'node:fs';
import { LineSplitter } from './read-line-splitter.js';
import { openRegular, openRegularSync } from './read-open.js';

export interface LineInfo {
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** Byte offset just past the line's newline (or past the last byte for a final unterminated line). */
  end: number;
  /** False for a final line with no newline: it may be torn by a writer still appending. */
  complete: boolean;
  /** 1-based line number counted from `start` (oversized lines count though they are skipped). */
  line: number;
  /** The line was over the bound and reaches the handler clipped (`clipLongLines`): strings cut short. */
  clipped?: true;
}

/** Return `false` to stop reading early. */
export type LineHandler = (text: string, info: LineInfo) => void | boolean;

export interface ReadLinesOptions {
  /** Byte offset to start at (must be a line start). Default 0. */
  start?: number;
  /** Lines longer than this many bytes are skipped and counted, not decoded. Default unlimited. */
  maxLineBytes?: number;
  chunkBytes?: number;
  /**
   * With this, a line over `maxLineBytes` is not skipped but streamed through a JSON string clipper
   * (`JsonLineClipper`) and handed on clipped, flagged `clipped`; only a line whose clipped copy still
   * passes `maxOutputBytes` is counted oversized. Memory stays bounded by `maxOutputBytes`.
   */
  clipLongLines?: { keepStringBytes: number; maxOutputBytes: number };
}

export interface ReadLinesResult {
  /** Size of the file when it was opened. */
  size: number;
  /** Offset just past the last complete (newline-terminated) line. */
  completeEnd: number;
  lines: number;
  oversizedLines: number;
  /** Lines over the bound handed on clipped (`clipLongLines`). */
  clippedLines: number;
  stoppedEarly: boolean;
}

const defaultChunk = 2 << 20;

/**
 * The read buffer of the last call that finished, lent to the next one: a scan reads thousands of
 * files, and a fresh buffer each is memory the kernel must map on the first read into it (the read
 * time of a cold scan doubled) and external memory that forces garbage collections. A nested call
 * (a handler reading another file) finds none to borrow and allocates its own.
 */
let spare: Buffer | null = null;

function borrowChunk(bytes: number): Buffer {
  if (spare !== null && spare.length >= bytes) {
    const b = spare;
    spare = null;
    return b;
  }
  return Buffer.allocUnsafe(bytes);
}

function returnChunk(b: Buffer): void {
  if (spare === null || b.length > spare.length) spare = b;
}

/**
 * Calls `onLine` for every line of `path` from `opts.start`. A trailing `\r` is removed.
 * Example: await forEachLine(file, (text, { offset }) => { rows.push(JSON.parse(text)); });
 */
export async function forEachLine(path: string, onLine: LineHandler, opts: ReadLinesOptions = {}): Promise<ReadLinesResult> {
  return forEachLineSync(path, onLine, opts);
}

/**
 * Called with each line's bytes as `buf[start, end)` (newline excluded, `\r` kept): the buffer is
 * only valid during the call. Return `false` to stop reading early.
 */
export type RawLineHandler = (buf: Buffer, start: number, end: number, info: LineInfo) => void | boolean;

/**
 * The one chunked line splitter every reader builds on: reads `path` in large chunks from
 * `opts.start` and hands each line's bytes to `onRaw` undecoded, so a caller can skip or cut a line
 * before paying for its decoding. Lines over `maxLineBytes` are counted, never buffered or handed
 * on. Reads are synchronous on purpose: parsing is CPU-bound and the asynchronous read path left the
 * core idle between chunks (large scans run in worker threads).
 */
export function forEachRawLine(path: string, onRaw: RawLineHandler, opts: ReadLinesOptions = {}): ReadLinesResult {
  const { fd, size } = openRegularSync(path);
  const chunkBytes = opts.chunkBytes ?? defaultChunk;
  // A borrowed buffer may be larger than asked for: reads still take `chunkBytes` at a time.
  const chunk = borrowChunk(chunkBytes);
  try {
    let position = opts.start ?? 0;
    const splitter = new LineSplitter(onRaw, opts.maxLineBytes ?? Number.POSITIVE_INFINITY, opts.clipLongLines, position);
    while (position < size) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunkBytes, size - position), position);
      if (bytesRead === 0) break;
      // A view of the bytes read, so the search for a newline never runs into a stale tail.
      splitter.split(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead), position);
      if (splitter.stoppedEarly) return splitter.result(size);
      position += bytesRead;
    }
    splitter.finish();
    return splitter.result(size);
  } finally {
    returnChunk(chunk);
    closeSync(fd);
  }
}

/**
 * Decodes `buf[start, end)` as UTF-8 without a trailing `\r`. The encoding is left out on purpose:
 * UTF-8 is the default, and naming it sends every line through Node's encoding lookup.
 */
export function decodeLine(buf: Buffer, start: number, end: number): string {
  return buf.toString(undefined, start, end > start && buf[end - 1] === 13 ? end - 1 : end);
}

/** The synchronous form of `forEachLine`. */
export function forEachLineSync(path: string, onLine: LineHandler, opts: ReadLinesOptions = {}): ReadLinesResult {
  return forEachRawLine(path, (buf, start, end, info) => onLine(decodeLine(buf, start, end), info), opts);
}

/** Reads the first line of a file (at most `maxBytes`), or null if the file is empty. */
export async function readFirstLine(path: string, maxBytes = 1 << 20): Promise<string | null> {
  const { handle } = await openRegular(path);
  try {
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, 64 * 1024));
    let collected: Buffer[] = [];
    let total = 0;
    let position = 0;
    while (total < maxBytes) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, maxBytes - total), position);
      if (bytesRead === 0) break;
      const nl = buf.indexOf(10);
      if (nl !== -1 && nl < bytesRead) {
        collected.push(Buffer.from(buf.subarray(0, nl)));
        return Buffer.concat(collected).toString('utf8').replace(/\r$/, '');
      }
      collected.push(Buffer.from(buf.subarray(0, bytesRead)));
      total += bytesRead;
      position += bytesRead;
    }
    if (total === 0) return null;
    const text = Buffer.concat(collected).toString('utf8');
    collected = [];
    return text;
  } finally {
    await handle.close();
  }
}

/**
 * The file's first line (a trailing `\r` removed), at most `maxBytes`: the whole prefix when no
 * newline comes within it; null for an empty file. Synchronous: discovery reads one per file.
 */
export function readFirstLineSync(path: string, maxBytes: number): string | null {
  const { fd } = openRegularSync(path);
  try {
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, 64 * 1024));
    const collected: Buffer[] = [];
    let total = 0;
    while (total < maxBytes) {
      const got = readSync(fd, buf, 0, Math.min(buf.length, maxBytes - total), total);
      if (got === 0) break;
      const nl = buf.subarray(0, got).indexOf(10);
      if (nl !== -1) {
        collected.push(Buffer.from(buf.subarray(0, nl)));
        return Buffer.concat(collected).toString('utf8').replace(/\r$/, '');
      }
      collected.push(Buffer.from(buf.subarray(0, got)));
      total += got;
    }
    return total === 0 ? null : Buffer.concat(collected).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
