// Reads one Pi session file: its header and every entry in file order, within the bounds. Bad
// lines are counted; a torn final line (a writer still appending) is neither an entry nor bad.
import { statSync } from 'node:fs';
import { decodeLine, forEachRawLine } from '../../fs/read-lines.js';
import { parseObjectLine } from '../../json/narrow.js';
import type { PiBounds } from './bounds.js';
import { entryOf, headerOf, type PiEntry, type PiHeader } from './entry.js';
import { cutToolResult } from './summary-cut.js';

export interface PiFile {
  header: PiHeader | undefined;
  entries: PiEntry[];
  badLines: number;
  tornTail: boolean;
}

export type PiFileRead = { ok: true; file: PiFile } | { ok: false; reason: string };

/**
 * `full`: keep each tool result's (clipped) output; the lower detail levels drop it unbuilt.
 * `knownSize`: the size discovery stat'ed, not stat'ed again.
 */
export async function readPiFile(path: string, bounds: PiBounds, full = true, knownSize?: number): Promise<PiFileRead> {
  const size = knownSize ?? statSync(path).size;
  if (size > bounds.fileBytes)
    return { ok: false, reason: `session file is ${size} bytes, over the ${bounds.fileBytes}-byte bound; not read` };
  const file: PiFile = { header: undefined, entries: [], badLines: 0, tornTail: false };
  let lineNo = 0;
  let tooLong = false;
  const r = forEachRawLine(
    path,
    (buf, start, end, info) => {
      lineNo++;
      if (lineNo > bounds.fileLines) {
        tooLong = true;
        return false;
      }
      let o = full ? undefined : cutToolResult(buf, start, end);
      if (o === undefined) {
        const line = decodeLine(buf, start, end);
        if (line.trim() === '') return true;
        o = parseObjectLine(line);
      }
      if (o === undefined) {
        if (info.complete) file.badLines++;
        else file.tornTail = true;
        return true;
      }
      const header = file.header === undefined && file.entries.length === 0 ? headerOf(o) : undefined;
      if (header !== undefined) file.header = header;
      else file.entries.push(entryOf(o, lineNo, full));
      return true;
    },
    { maxLineBytes: bounds.lineBytes },
  );
  if (tooLong) return { ok: false, reason: `session file has more than ${bounds.fileLines} lines; not read` };
  file.badLines += r.oversizedLines;
  return { ok: true, file };
}
