// Pass one over `session.jsonl`: stream every line once, keep the rows the record is built from,
// and learn what decides how they are read (the era boundary, wrapper identity, which agent-input
// row a sidecar still belongs to). Drift is counted, never thrown.
import { num, parseObjectLine, str } from '../../json/narrow.js';
import { forEachLine } from '../../fs/read-lines.js';
import { toLogRow, type LogRow } from './log-row.js';
import { generalRows, isKnownRow, isRecordRow } from './vocabulary.js';

/** A line longer than this is skipped and counted (real rows are small; bulk lives in sidecars). */
export const maxRowBytes = 16 * 1024 * 1024;

export interface LogFacts {
  /** Line of the first `conversation_message_epoch` marker. */
  epochLine?: number;
  /** Whether any canonical `conversation_message` row exists. */
  hasLane: boolean;
  /** `session_identity` rows: (session id → backend id), as logged. */
  identities: { sessionId: string; backendSessionId?: string }[];
  /** For each agent-input sidecar, the last row that wrote it (it is overwritten per turn). */
  agentInputLastLine: Map<string, number>;
  /** Earliest and latest `ts_ms` over every row, relevant or not. */
  minMs?: number;
  maxMs?: number;
}

export interface LogRead {
  rows: LogRow[];
  facts: LogFacts;
  /** Lines that were not JSON objects with an `event` (oversized ones included). */
  badLines: number;
  /** The last line had no newline and did not parse: a writer may still be appending it. */
  tornTail: boolean;
  /** Events outside the documented vocabulary, by name: drift, counted. */
  unknownEvents: Map<string, number>;
  /** Rows that narrowed to a LogEvent. */
  events: number;
}

const general: ReadonlySet<string> = new Set(generalRows);

/** Only generic rows that say something the record uses are kept. */
function keepGeneral(row: LogRow): boolean {
  const m = row.message;
  return m !== undefined && (m.startsWith('Model: ') || m.startsWith('Round '));
}

export async function readLog(path: string): Promise<LogRead> {
  const rows: LogRow[] = [];
  const facts: LogFacts = { hasLane: false, identities: [], agentInputLastLine: new Map() };
  const unknownEvents = new Map<string, number>();
  let badLines = 0;
  let tornTail = false;
  let events = 0;
  let lineNo = 0;
  let expected = 0;
  const r = await forEachLine(
    path,
    (textLine, info) => {
      // Skipped oversized lines leave a gap in offsets: count it as one line so numbers stay close.
      lineNo += info.offset > expected ? 2 : 1;
      expected = info.end;
      if (textLine === '') return;
      const obj = parseObjectLine(textLine);
      // A row is what `toLogRow` narrows: one with a non-empty `event`. A quarter of the rows are
      // telemetry the record never uses: only their event and time are read, with no row built.
      const e = obj === undefined ? undefined : str(obj, 'event');
      if (obj === undefined || e === undefined || e === '') {
        if (!info.complete) tornTail = true;
        else if (textLine.trim() !== '') badLines++;
        return;
      }
      events++;
      const tsMs = num(obj, 'ts_ms');
      if (tsMs !== undefined) {
        if (facts.minMs === undefined || tsMs < facts.minMs) facts.minMs = tsMs;
        if (facts.maxMs === undefined || tsMs > facts.maxMs) facts.maxMs = tsMs;
      }
      if (!isKnownRow(e)) unknownEvents.set(e, (unknownEvents.get(e) ?? 0) + 1);
      if (!isRecordRow(e)) return;
      const row = toLogRow(obj, lineNo);
      if (row === undefined || (general.has(e) && !keepGeneral(row))) return;
      if (e === 'conversation_message') facts.hasLane = true;
      else if (e === 'conversation_message_epoch') facts.epochLine ??= row.line;
      else if (e === 'agent_input' && row.file !== undefined) facts.agentInputLastLine.set(row.file, row.line);
      else if (e === 'session_identity') {
        const sessionId = str(row.data, 'session_id');
        if (sessionId !== undefined) facts.identities.push({ sessionId, backendSessionId: str(row.data, 'backend_session_id') });
      }
      rows.push(row);
    },
    { maxLineBytes: maxRowBytes },
  );
  return { rows, facts, badLines: badLines + r.oversizedLines, tornTail, unknownEvents, events };
}
