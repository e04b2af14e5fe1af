// Line reading without decoding: hands each line's bytes to a filter first, so a reader that wants
// a few lines of a large log (the message index wants prose, not tool output) decodes only those.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { LineInfo, ReadLinesOptions, ReadLinesResult } from './read-lines.js';

/** Return true to have the line decoded and handed to `onLine`. The buffer is only valid during the call. */
export type RawLineFilter = (bytes: Buffer) => boolean;

/**
 * Like `forEachLine`, but a line reaches `onLine` (decoded, trailing `\r` removed) only when
 * `want(bytes)` says so; offsets, torn tail and oversize handling are the same.
 */
export function forEachWantedLine(path: string, want: RawLineFilter, onLine: (text: string, info: LineInfo) => void, opts: ReadLinesOptions = {}): ReadLinesResult {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const maxLine = opts.maxLineBytes ?? Number.POSITIVE_INFINITY;
    const chunk = Buffer.allocUnsafe(opts.chunkBytes ?? 1 << 20);
    let position = opts.start ?? 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let pendingOffset = position;
    let oversized = false;
    const result: ReadLinesResult = { size, completeEnd: position, lines: 0, oversizedLines: 0, stoppedEarly: false };
    const emit = (bytes: Buffer, offset: number, end: number, complete: boolean): void => {
      result.lines++;
      if (complete) result.completeEnd = end;
      if (!want(bytes)) return;
      const n = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
      onLine(bytes.toString('utf8', 0, n), { offset, end, complete, line: result.lines });
    };
    while (position < size) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
      if (bytesRead === 0) break;
      let start = 0;
      while (start < bytesRead) {
        const nl = chunk.indexOf(10, start);
        if (nl === -1 || nl >= bytesRead) {
          const piece = bytesRead - start;
          if (pendingBytes === 0) pendingOffset = position + start;
          if (!oversized && pendingBytes + piece > maxLine) oversized = true;
          if (!oversized) pending.push(Buffer.from(chunk.subarray(start, bytesRead)));
          pendingBytes += piece;
          break;
        }
        const lineOffset = pendingBytes > 0 ? pendingOffset : position + start;
        const end = position + nl + 1;
        if (oversized || pendingBytes + (nl - start) > maxLine) {
          result.oversizedLines++;
          result.lines++;
          result.completeEnd = end;
        } else if (pendingBytes > 0) {
          pending.push(chunk.subarray(start, nl));
          emit(Buffer.concat(pending), lineOffset, end, true);
        } else {
          emit(chunk.subarray(start, nl), lineOffset, end, true);
        }
        pending = [];
        pendingBytes = 0;
        oversized = false;
        start = nl + 1;
      }
      position += bytesRead;
    }
    if (pendingBytes > 0) {
      if (oversized) {
        result.oversizedLines++;
        result.lines++;
      } else emit(Buffer.concat(pending), pendingOffset, pendingOffset + pendingBytes, false);
    }
    return result;
  } finally {
    closeSync(fd);
  }
}
