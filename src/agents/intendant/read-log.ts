// Pass one over `session.jsonl`: stream every line once, keep the rows the record is built from,
// and learn what decides how they are read (the era boundary, wrapper identity, which agent-input
// row a sidecar still belongs to). Drift is counted, never thrown.
import { type JsonObject, num, parseObjectLine, str } from '../../json/narrow.js';
import { forEachLine, type LineInfo } from '../../fs/read-lines.js';
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

/**
 * The row collector behind `readLog`. Its state lives in fields of one class, not in variables a
 * per-file closure captures (the shape `LineSplitter` takes for the optimiser): the closure form
 * was thrown away and compiled again four times in a cold scan of the bench home (`--trace-deopt`).
 */
class LogCollector {
  readonly rows: LogRow[] = [];
  readonly facts: LogFacts = { hasLane: false, identities: [], agentInputLastLine: new Map() };
  readonly unknownEvents = new Map<string, number>();
  badLines = 0;
  tornTail = false;
  events = 0;
  private lineNo = 0;
  private expected = 0;
  /** Least and greatest `ts_ms` so far (NaN: none yet), kept here so `facts` keeps one shape while rows are read. */
  private minMs = Number.NaN;
  private maxMs = Number.NaN;

  line(textLine: string, info: LineInfo): void {
    // Skipped oversized lines leave a gap in offsets: count it as one line so numbers stay close.
    this.lineNo += info.offset > this.expected ? 2 : 1;
    this.expected = info.end;
    if (textLine === '') return;
    const obj = parseObjectLine(textLine);
    // A row is what `toLogRow` narrows: one with a non-empty `event`. A quarter of the rows are
    // telemetry the record never uses: only their event and time are read, with no row built.
    const e = obj === undefined ? undefined : str(obj, 'event');
    if (obj === undefined || e === undefined || e === '') {
      if (!info.complete) this.tornTail = true;
      else if (textLine.trim() !== '') this.badLines++;
      return;
    }
    this.events++;
    const tsMs = num(obj, 'ts_ms');
    if (tsMs !== undefined) {
      // (NaN compares false: the first time is taken by the `!(… >= …)` form.)
      if (!(tsMs >= this.minMs)) this.minMs = tsMs;
      if (!(tsMs <= this.maxMs)) this.maxMs = tsMs;
    }
    if (!isKnownRow(e)) this.unknownEvents.set(e, (this.unknownEvents.get(e) ?? 0) + 1);
    if (isRecordRow(e)) this.keep(obj, e);
  }

  private keep(obj: JsonObject, e: string): void {
    const row = toLogRow(obj, this.lineNo);
    if (row === undefined || (general.has(e) && !keepGeneral(row))) return;
    const facts = this.facts;
    if (e === 'conversation_message') facts.hasLane = true;
    else if (e === 'conversation_message_epoch') facts.epochLine ??= row.line;
    else if (e === 'agent_input' && row.file !== undefined) facts.agentInputLastLine.set(row.file, row.line);
    else if (e === 'session_identity') {
      const sessionId = str(row.data, 'session_id');
      if (sessionId !== undefined) facts.identities.push({ sessionId, backendSessionId: str(row.data, 'backend_session_id') });
    }
    this.rows.push(row);
  }

  /** The facts with the time span, once every row was read. */
  finalFacts(): LogFacts {
    if (!Number.isNaN(this.minMs)) this.facts.minMs = this.minMs;
    if (!Number.isNaN(this.maxMs)) this.facts.maxMs = this.maxMs;
    return this.facts;
  }
}

export async function readLog(path: string): Promise<LogRead> {
  const c = new LogCollector();
  const r = await forEachLine(path, (textLine, info) => c.line(textLine, info), { maxLineBytes: maxRowBytes });
  return {
    rows: c.rows,
    facts: c.finalFacts(),
    badLines: c.badLines + r.oversizedLines,
    tornTail: c.tornTail,
    unknownEvents: c.unknownEvents,
    events: c.events,
  };
}
