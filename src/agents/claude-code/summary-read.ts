// Streams a transcript's objects for summary detail straight from the file's bytes, so that long
// tool-result bodies are cut before they are decoded (`cutLine`); other lines are read as usual.
import { isJson } from '../../fs/read-jsonl.js';
import { forEachRawLine, type ReadLinesOptions } from '../../fs/read-lines.js';
import { parseObjectLine, type JsonObject } from '../../json/narrow.js';
import { cutLine, minCutLineBytes } from './summary-line.js';

/**
 * Calls `onObject` for each JSON object line of `path` and returns the bad-line count, with the same
 * rules as `forEachJsonObject`: blank lines ignored, a trailing `\r` dropped, a torn final line not
 * counted, lines over `maxLineBytes` read clipped (with `clipLongLines`) or counted as bad.
 */
export function forEachSummaryObject(
  path: string,
  onObject: (o: JsonObject) => void,
  maxLineBytes: number,
  clipLongLines?: ReadLinesOptions['clipLongLines'],
): { bad: number; notObjects: number; clipped: number } {
  let bad = 0;
  let notObjects = 0;
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
    else if (complete && text.trim() !== '') {
      bad++;
      if (isJson(text)) notObjects++;
    }
  };

  const opts: ReadLinesOptions = { maxLineBytes };
  if (clipLongLines !== undefined) opts.clipLongLines = clipLongLines;
  const r = forEachRawLine(path, (buf, start, end, info) => line(buf, start, end, info.complete), opts);
  return { bad: bad + r.oversizedLines, notObjects, clipped: r.clippedLines };
}
