// What a generation file stores of each record and of its segment, and the checks that read them
// back: a record's fields other than its text, time and subagent flag (those live in the body's own
// columns and text block, see segment-body.ts), and the segment's head (owner, marks).
import { z } from 'zod';
import { asObject } from '../json/narrow.js';
import { messageRoles, type Locator, type MessageRecord, type SupersessionMark } from '../record/message-index.js';
import { agentIds } from '../record/types.js';

/** A record as its JSON line in the body stores it: everything but `text`, `ts_ms` and `subagent`. */
export type RecordMeta = Omit<MessageRecord, 'text' | 'ts_ms' | 'subagent'>;

/** The record's stored fields in a fixed key order: equal content gives equal bytes, hence an equal file name. */
export function recordMeta(r: MessageRecord): RecordMeta {
  const out: RecordMeta = { role: r.role, locator: r.locator };
  if (r.truncated === true) out.truncated = true;
  if (r.seq !== undefined) out.seq = r.seq;
  if (r.user_turn !== undefined) out.user_turn = r.user_turn;
  if (r.item_id !== undefined) out.item_id = r.item_id;
  if (r.thread !== undefined) out.thread = r.thread;
  if (r.generation !== undefined && r.generation !== 0) out.generation = r.generation;
  return out;
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

/** Every stored field of a record, of its type, the optional ones absent or well-formed. */
export function isRecordMeta(v: unknown): v is RecordMeta {
  const o = asObject(v);
  return (
    o !== undefined &&
    (messageRoles as readonly unknown[]).includes(o.role) &&
    isLocator(o.locator) &&
    optional(o.truncated, isTrue) &&
    optional(o.seq, isNum) &&
    optional(o.user_turn, isNum) &&
    optional(o.item_id, isStr) &&
    optional(o.thread, isStr) &&
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

/** A segment's head: whose it is, and its marks. */
export const headSchema = z.object({
  agent: z.enum(agentIds),
  session_id: z.string(),
  marks_mode: z.enum(['append', 'replace']),
  marks: z.array(markSchema),
});

export type SegmentHead = z.infer<typeof headSchema>;
