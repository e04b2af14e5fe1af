// Line reading without decoding: hands each line's bytes to a filter first, so a reader that wants
// a few lines of a large log (the message index wants prose, not tool output) decodes only those.
import { decodeLine, forEachRawLine, type LineInfo, type ReadLinesOptions, type ReadLinesResult } from './read-lines.js';

/** Return true to have the line decoded and handed to `onLine`. The buffer is only valid during the call. */
export type RawLineFilter = (bytes: Buffer) => boolean;

/**
 * Like `forEachLine`, but a line reaches `onLine` (decoded, trailing `\r` removed) only when
 * `want(bytes)` says so; offsets, torn tail and oversize handling are the same.
 */
export function forEachWantedLine(
  path: string,
  want: RawLineFilter,
  onLine: (text: string, info: LineInfo) => void,
  opts: ReadLinesOptions = {},
): ReadLinesResult {
  return forEachRawLine(
    path,
    (buf, start, end, info) => {
      if (want(buf.subarray(start, end))) onLine(decodeLine(buf, start, end), info);
    },
    { chunkBytes: 1 << 20, ...opts },
  );
}
