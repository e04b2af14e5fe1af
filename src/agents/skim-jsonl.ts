// JSONL objects for readers that can tell from a line's first bytes that they need little of it:
// such a line is handed to `skim` undecoded and never parsed (a tool's whole output, read at a
// detail level that keeps only the call's name), every other line is parsed as `forEachJsonObject`
// parses it, with bad lines counted the same way.
import { decodeLine, forEachRawLine, type LineInfo, type ReadLinesOptions } from '../fs/read-lines.js';
import { parseObjectLine, type JsonObject } from '../json/narrow.js';

export interface SkimHandlers {
  /** Returns true when it took what it needs from the raw line: the line is then not parsed. */
  skim?: (buf: Buffer, start: number, end: number, info: LineInfo) => boolean;
  onObject: (obj: JsonObject, info: LineInfo) => void;
}

/** True when `buf[start, …)` opens with `prefix` (ASCII). */
export function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  return end - start >= prefix.length && buf.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

/** The last `bytes` of a line decoded (for a field written near its end). */
export function tail(buf: Buffer, start: number, end: number, bytes: number): string {
  return buf.toString('latin1', Math.max(start, end - bytes), end);
}

/** Streams the file's objects; answers the bad-line count (a torn final line is not bad). */
export function skimJsonl(path: string, h: SkimHandlers, opts: ReadLinesOptions = {}): number {
  let bad = 0;
  const r = forEachRawLine(
    path,
    (buf, start, end, info) => {
      if (h.skim?.(buf, start, end, info) === true) return true;
      const line = decodeLine(buf, start, end);
      if (line.trim() === '') return true;
      const o = parseObjectLine(line);
      if (o === undefined) {
        if (info.complete) bad++;
        return true;
      }
      h.onObject(o, info);
      return true;
    },
    opts,
  );
  return bad + r.oversizedLines;
}
