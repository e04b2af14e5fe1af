// Generation files: immutable, content-named segments of one session's records and marks (seed 000
// "The shard store"). A session's shard is an ordered list of segments, so an append writes one
// small segment instead of rewriting the session. A file holds the segment's n-gram filter first,
// then its JSON body: a query reads the few filter bytes and opens the body only on a maybe.
import { createHash } from 'node:crypto';
import { asArray, asObject, num, str, type JsonObject } from '../json/narrow.js';
import { locatorKinds, messageRoles, type Locator, type MessageRecord, type SupersessionMark } from '../record/message-index.js';
import { isAgentId, type AgentId } from '../record/types.js';

export const segmentFormat = 1;

export interface Segment {
  agent: AgentId;
  session_id: string;
  records: MessageRecord[];
  marks: SupersessionMark[];
  /** `replace`: these marks are the session's whole list from here on; `append`: they add. */
  marks_mode: 'append' | 'replace';
}

/** The full SHA-256 of the body names the file (weak spot 21: no truncated hash). */
export function segmentName(body: string): string {
  return `${createHash('sha256').update(body, 'utf8').digest('hex')}.seg`;
}

const fileMagic = 0x47534741; // "AGSG" little-endian
export const fileHeaderBytes = 12;

/** The file form: magic, format, filter length (u32 LE each), the filter, then the JSON body. */
export function encodeSegmentFile(body: string, filter: Uint8Array): Buffer {
  const head = Buffer.alloc(fileHeaderBytes);
  head.writeUInt32LE(fileMagic, 0);
  head.writeUInt32LE(segmentFormat, 4);
  head.writeUInt32LE(filter.length, 8);
  return Buffer.concat([head, filter, Buffer.from(body, 'utf8')]);
}

/** The filter length a file's header states, or null for a header that is not ours. */
export function filterLength(head: Uint8Array): number | null {
  if (head.length < fileHeaderBytes) return null;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(0, true) !== fileMagic || view.getUint32(4, true) !== segmentFormat) return null;
  return view.getUint32(8, true);
}

/** Splits a file into its filter and body; null when the framing is broken. */
export function decodeSegmentFile(buf: Buffer): { filter: Buffer; body: Buffer } | null {
  const n = filterLength(buf);
  if (n === null || fileHeaderBytes + n > buf.length) return null;
  return { filter: buf.subarray(fileHeaderBytes, fileHeaderBytes + n), body: buf.subarray(fileHeaderBytes + n) };
}

function recordWire(r: MessageRecord): MessageRecord {
  // A fixed key order makes equal content give equal bytes, hence an equal file name.
  const out: MessageRecord = { role: r.role, ts_ms: r.ts_ms, text: r.text, locator: r.locator };
  if (r.truncated === true) out.truncated = true;
  if (r.seq !== undefined) out.seq = r.seq;
  if (r.user_turn !== undefined) out.user_turn = r.user_turn;
  if (r.item_id !== undefined) out.item_id = r.item_id;
  if (r.thread !== undefined) out.thread = r.thread;
  if (r.subagent === true) out.subagent = true;
  if (r.generation !== undefined && r.generation !== 0) out.generation = r.generation;
  return out;
}

export function serialiseSegment(s: Segment): string {
  return JSON.stringify({
    format: segmentFormat,
    agent: s.agent,
    session_id: s.session_id,
    marks_mode: s.marks_mode,
    marks: s.marks,
    records: s.records.map(recordWire),
  });
}

function narrowLocator(v: unknown): Locator | undefined {
  const o = asObject(v);
  const kind = str(o, 'kind');
  if (o === undefined || kind === undefined || !(locatorKinds as readonly string[]).includes(kind)) return undefined;
  // Locators are written only by extractors through this module's serialiser; their shape is checked
  // by kind, the fields pass through as stored.
  return o as unknown as Locator;
}

function narrowRecord(v: unknown): MessageRecord | undefined {
  const o = asObject(v);
  const role = str(o, 'role');
  const ts = num(o, 'ts_ms');
  const text = str(o, 'text');
  const locator = narrowLocator(o?.locator);
  if (o === undefined || role === undefined || !(messageRoles as readonly string[]).includes(role)) return undefined;
  if (ts === undefined || text === undefined || locator === undefined) return undefined;
  return o as unknown as MessageRecord;
}

function narrowMark(v: unknown): SupersessionMark | undefined {
  const o = asObject(v);
  const kind = str(o, 'kind');
  if (o === undefined || num(o, 'at_ms') === undefined) return undefined;
  switch (kind) {
    case 'seq_cut':
      return num(o, 'cut_after_seq') !== undefined ? (o as unknown as SupersessionMark) : undefined;
    case 'turn_count':
      return num(o, 'num_turns') !== undefined ? (o as unknown as SupersessionMark) : undefined;
    case 'item_anchor':
      return str(o, 'item_id') !== undefined ? (o as unknown as SupersessionMark) : undefined;
    case 'generation_restore':
      return num(o, 'active_generation') !== undefined ? (o as unknown as SupersessionMark) : undefined;
    case 'record_ids':
      return asArray(o.record_ids)?.every((x) => typeof x === 'string') === true ? (o as unknown as SupersessionMark) : undefined;
    default:
      return undefined;
  }
}

/**
 * Reads a generation file's bytes, checking that its body hashes to `name` and holds a well-formed
 * segment; null when corrupt (the caller quarantines it and the sweep re-extracts the session).
 */
export function parseSegment(name: string, file: Buffer): Segment | null {
  const parts = decodeSegmentFile(file);
  if (parts === null) return null;
  const body = parts.body;
  if (createHash('sha256').update(body).digest('hex') !== name.replace(/\.seg$/, '')) return null;
  let top: JsonObject | undefined;
  try {
    top = asObject(JSON.parse(body.toString('utf8')));
  } catch {
    return null;
  }
  const agent = str(top, 'agent');
  const sessionId = str(top, 'session_id');
  const mode = str(top, 'marks_mode');
  const rawRecords = asArray(top?.records);
  const rawMarks = asArray(top?.marks);
  if (num(top, 'format') !== segmentFormat || agent === undefined || !isAgentId(agent) || sessionId === undefined) return null;
  if ((mode !== 'append' && mode !== 'replace') || rawRecords === undefined || rawMarks === undefined) return null;
  const records: MessageRecord[] = [];
  for (const r of rawRecords) {
    const rec = narrowRecord(r);
    if (rec === undefined) return null;
    records.push(rec);
  }
  const marks: SupersessionMark[] = [];
  for (const m of rawMarks) {
    const mark = narrowMark(m);
    if (mark === undefined) return null;
    marks.push(mark);
  }
  return { agent, session_id: sessionId, records, marks, marks_mode: mode };
}

/**
 * The marks in force after a run of segments, and whether they replace what came before. A
 * `replace` keeps the index's own `generation_restore` marks: only an extractor's marks are its to drop.
 */
export function combineMarks(segments: readonly Pick<Segment, 'marks' | 'marks_mode'>[]): {
  marks: SupersessionMark[];
  mode: 'append' | 'replace';
} {
  let marks: SupersessionMark[] = [];
  let mode: 'append' | 'replace' = 'append';
  for (const s of segments) {
    if (s.marks_mode === 'replace') {
      marks = [...marks.filter((m) => m.kind === 'generation_restore'), ...s.marks];
      mode = 'replace';
    } else marks = marks.concat(s.marks);
  }
  return { marks, mode };
}
