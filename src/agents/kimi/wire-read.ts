// Reads one agent's wire.jsonl into a WireLog within the session's bounds. Fail-closed: a line
// over the record bound or a wire past the session's record budget yields no log at all, so an
// oversized file is never partially read into a record.
import { decodeLine, forEachRawLine } from '../../fs/read-lines.js';
import { parseObjectLine } from '../../json/narrow.js';
import { cutToolOutput } from './summary-cut.js';
import type { WireLog } from './wire-entry.js';
import { WireFold } from './wire-fold.js';
import { wireLine } from './wire-line.js';

export interface WireLimits {
  maxLineBytes: number;
  /** Records this wire may add before the session's record budget is spent. */
  maxRecords: number;
  /** Summary detail: the characters of a tool result's output read (see summary-cut); all when absent. */
  outputHead?: number;
}

export type WireRead = { ok: true; log: WireLog; badLines: number; tornTail: boolean } | { ok: false; reason: string };

/** Streams `path` through the fold. I/O errors propagate; content never throws. */
export async function readWire(path: string, agentId: string, limits: WireLimits): Promise<WireRead> {
  const fold = new WireFold(agentId);
  let lineNo = 0;
  let records = 0;
  let badLines = 0;
  let tornTail = false;
  let overBudget = false;
  const head = limits.outputHead;
  const r = forEachRawLine(
    path,
    (buf, start, end, info) => {
      lineNo++;
      let o = head === undefined ? undefined : cutToolOutput(buf, start, end, head);
      if (o === undefined) {
        const line = decodeLine(buf, start, end);
        if (line.trim() === '') return true;
        o = parseObjectLine(line);
      }
      if (o === undefined) {
        // A final line without its newline may still be being written: not consumed, not bad.
        if (info.complete) badLines++;
        else tornTail = true;
        return true;
      }
      if (++records > limits.maxRecords) {
        overBudget = true;
        return false;
      }
      fold.apply(wireLine(o), lineNo);
      return true;
    },
    { maxLineBytes: limits.maxLineBytes },
  );
  if (r.oversizedLines > 0) return { ok: false, reason: `a wire record is over the ${limits.maxLineBytes}-byte bound; wire not read` };
  if (overBudget) return { ok: false, reason: `the session's wire-record budget is spent (${limits.maxRecords} left); wire not read` };
  return { ok: true, log: fold.finish(), badLines, tornTail };
}
