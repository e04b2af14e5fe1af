// Generation files: immutable, content-named segments of one session's records and marks (seed 000
// "The shard store"). A session's shard is an ordered list of segments, so an append writes one
// small segment instead of rewriting the session. A file holds the segment's n-gram filter first,
// then its JSON body: a query reads the few filter bytes and opens the body only on a maybe.
import { isAscii } from 'node:buffer';
import { sha256Hex } from '../fs/hash.js';
import { z } from 'zod';
import { asObject } from '../json/narrow.js';
import { messageRoles, type Locator, type MessageRecord, type SupersessionMark } from '../record/message-index.js';
import { agentIds, type AgentId } from '../record/types.js';

export const segmentFormat = 1;

export interface Segment {
  agent: AgentId;
  session_id: string;
  records: MessageRecord[];
  marks: SupersessionMark[];
  /** `replace`: these marks are the session's whole list from here on; `append`: they add. */
  marks_mode: 'append' | 'replace';
}

/** The full SHA-256 of the body names the file (never a truncated hash: two bodies must never share a name). */
export function segmentName(body: string): string {
  return `${sha256Hex(body)}.seg`;
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

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const optional = <T>(v: unknown, is: (x: unknown) => x is T): boolean => v === undefined || is(v);
const isTrue = (v: unknown): v is true => v === true;

/** Every field a locator of its kind has, of its type (read by hand: records are many and hot at query time). */
function isLocator(v: unknown): v is Locator {
  const o = asObject(v);
  switch (o?.kind) {
    case 'native_message_id':
      return isStr(o.message_id);
    case 'native_event':
      return isNum(o.line_no) && isStr(o.content_hash16);
    case 'native_sidecar_span':
      return isStr(o.file) && isNum(o.offset) && isNum(o.len) && isStr(o.content_hash16);
    case 'external_record_id':
      return isStr(o.record_id) && optional(o.file, isStr);
    case 'external_line':
      return isNum(o.line_offset) && isStr(o.content_hash16) && optional(o.file, isStr);
    default:
      return false;
  }
}

/** Every field of a message record, of its type, the optional ones absent or well-formed. */
function isMessageRecord(v: unknown): v is MessageRecord {
  const o = asObject(v);
  return (
    o !== undefined &&
    (messageRoles as readonly unknown[]).includes(o.role) &&
    isNum(o.ts_ms) &&
    isStr(o.text) &&
    isLocator(o.locator) &&
    optional(o.truncated, isTrue) &&
    optional(o.seq, isNum) &&
    optional(o.user_turn, isNum) &&
    optional(o.item_id, isStr) &&
    optional(o.thread, isStr) &&
    optional(o.subagent, isTrue) &&
    optional(o.generation, isNum)
  );
}

const markBase = { at_ms: z.number().finite() };
const threadRange = { thread: z.string().optional(), upto: z.number().finite().optional() };

/** A supersession mark as stored, every kind with every field its type names. */
const markSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('seq_cut'), cut_after_seq: z.number().finite(), ...markBase, ...threadRange }),
  z.object({ kind: z.literal('turn_count'), num_turns: z.number().finite(), ...markBase, ...threadRange }),
  z.object({
    kind: z.literal('item_anchor'),
    item_id: z.string(),
    position: z.enum(['before', 'after']),
    from: z.number().finite().optional(),
    ...markBase,
    ...threadRange,
  }),
  z.object({ kind: z.literal('generation_restore'), active_generation: z.number().finite(), ...markBase }),
  z.object({ kind: z.literal('record_ids'), record_ids: z.array(z.string()), reason: z.string(), ...markBase }),
]) satisfies z.ZodType<SupersessionMark>;

/** A segment's header: what it is, whose it is, and its marks (records are checked one by one). */
const headerSchema = z.object({
  format: z.literal(segmentFormat),
  agent: z.enum(agentIds),
  session_id: z.string(),
  marks_mode: z.enum(['append', 'replace']),
  marks: z.array(markSchema),
});

/**
 * The body as text. An ASCII body (JSON.stringify writes non-ASCII as is, so a log in English has
 * none) decodes as Latin-1, the same text: a copy, where UTF-8 decoding costs several times more
 * on a multi-MB body, a cold query's largest single step after JSON.parse.
 */
function bodyText(body: Buffer): string {
  return isAscii(body) ? body.toString('latin1') : body.toString('utf8');
}

/**
 * Reads a generation file's bytes, checking that its body hashes to `name` and holds a well-formed
 * segment; null when corrupt (the caller quarantines it and the sweep re-extracts the session).
 */
export function parseSegment(name: string, file: Buffer): Segment | null {
  const parts = decodeSegmentFile(file);
  if (parts === null) return null;
  const body = parts.body;
  if (sha256Hex(body) !== name.replace(/\.seg$/, '')) return null;
  let json: unknown;
  try {
    json = JSON.parse(bodyText(body));
  } catch {
    return null;
  }
  const header = headerSchema.safeParse(json);
  if (!header.success) return null;
  const { agent, session_id: sessionId, marks_mode: mode, marks } = header.data;
  // Records are many and hot at query time: each is checked by hand, field by field, not by a schema
  // (which would also copy the array first).
  const raw = (json as { records?: unknown }).records;
  if (!Array.isArray(raw)) return null;
  const records: MessageRecord[] = [];
  for (const r of raw as unknown[]) {
    if (!isMessageRecord(r)) return null;
    records.push(r);
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
