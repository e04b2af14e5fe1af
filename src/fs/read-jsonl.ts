// JSONL on top of the line reader: one object per line, bad lines counted, a torn tail noted.
import { parseObjectLine, type JsonObject } from '../json/narrow.js';
import { forEachLineSync, type LineInfo, type ReadLinesOptions } from './read-lines.js';

export interface JsonlResult {
  /** Non-empty lines that were not a JSON object (a torn final line is not counted here). */
  badLines: number;
  /** Of `badLines`, those that are valid JSON but not an object (`42`, `"text"`, `[1]`): not a record. */
  notObjectLines: number;
  /** The final line had no newline and did not parse: a writer may still be appending it. */
  tornTail: boolean;
  lines: number;
  oversizedLines: number;
  /** Lines over the bound read clipped (`clipLongLines`): kept, not bad. */
  clippedLines: number;
  size: number;
  completeEnd: number;
}

export type ObjectHandler = (obj: JsonObject, info: LineInfo) => void | boolean;

/** Streams a JSONL file's objects to `onObject`. Blank lines are ignored. */
export async function forEachJsonObject(path: string, onObject: ObjectHandler, opts: ReadLinesOptions = {}): Promise<JsonlResult> {
  return forEachJsonObjectSync(path, onObject, opts);
}

/** The synchronous form of `forEachJsonObject`. */
export function forEachJsonObjectSync(path: string, onObject: ObjectHandler, opts: ReadLinesOptions = {}): JsonlResult {
  let badLines = 0;
  let notObjectLines = 0;
  let tornTail = false;
  const r = forEachLineSync(
    path,
    (line, info) => {
      if (line.length === 0) return true;
      const value = parseObjectLine(line);
      if (value === undefined) {
        if (!info.complete) tornTail = true;
        else if (line.trim() !== '') {
          badLines++;
          if (isJson(line)) notObjectLines++;
        }
        return true;
      }
      return onObject(value, info);
    },
    opts,
  );
  return {
    badLines: badLines + r.oversizedLines,
    notObjectLines,
    tornTail,
    lines: r.lines,
    oversizedLines: r.oversizedLines,
    clippedLines: r.clippedLines,
    size: r.size,
    completeEnd: r.completeEnd,
  };
}

/** Whether a line that is not a JSON object is JSON at all (then it is "not a record", not "unparseable"). */
export function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
