// Streams a transcript's objects for summary detail straight from the file's bytes, so that long
// tool-result bodies are cut before they are decoded (`cutLine`); other lines are read as usual.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseObjectLine, type JsonObject } from '../../json/narrow.js';
import { cutLine, minCutLineBytes } from './summary-line.js';

const chunkBytes = 2 << 20;

/**
 * Calls `onObject` for each JSON object line of `path` and returns the bad-line count, with the same
 * rules as `forEachJsonObject`: blank lines ignored, a trailing `\r` dropped, a torn final line not
 * counted, lines over `maxLineBytes` counted as bad without being decoded.
 */
export function forEachSummaryObject(path: string, onObject: (o: JsonObject) => void, maxLineBytes: number): number {
  let bad = 0;
  const line = (b: Buffer, start: number, end: number, complete: boolean): void => {
    if (end > start && b[end - 1] === 13) end--;
    if (end === start) return;
    if (end - start >= minCutLineBytes) {
      const cut = cutLine(b, start, end);
      const value = cut === undefined ? undefined : parseObjectLine(cut);
      if (value !== undefined) {
        onObject(value);
        return;
      }
    }
    const text = b.toString('utf8', start, end);
    const value = parseObjectLine(text);
    if (value !== undefined) onObject(value);
    else if (complete && text.trim() !== '') bad++;
  };

  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.allocUnsafe(chunkBytes);
    let position = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let oversized = false;
    while (position < size) {
      const bytesRead = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
      if (bytesRead === 0) break;
      let start = 0;
      while (start < bytesRead) {
        const nl = chunk.indexOf(10, start);
        if (nl === -1 || nl >= bytesRead) {
          const piece = bytesRead - start;
          if (!oversized && pendingBytes + piece > maxLineBytes) oversized = true;
          if (!oversized) pending.push(Buffer.from(chunk.subarray(start, bytesRead)));
          pendingBytes += piece;
          break;
        }
        if (oversized || pendingBytes + (nl - start) > maxLineBytes) bad++;
        else if (pendingBytes > 0) {
          pending.push(chunk.subarray(start, nl));
          const whole = Buffer.concat(pending);
          line(whole, 0, whole.length, true);
        } else line(chunk, start, nl, true);
        pending = [];
        pendingBytes = 0;
        oversized = false;
        start = nl + 1;
      }
      position += bytesRead;
    }
    if (pendingBytes > 0) {
      if (oversized) bad++;
      else {
        const whole = Buffer.concat(pending);
        line(whole, 0, whole.length, false);
      }
    }
    return bad;
  } finally {
    closeSync(fd);
  }
}
