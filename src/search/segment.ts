// Generation files: immutable, content-named segments of one session's records and marks (seed 000
// "The shard store"). A session's shard is an ordered list of segments, so an append writes one
// small segment instead of rewriting the session. A file holds the segment's n-gram filter first,
// then its body (segment-body.ts): a query reads the few filter bytes and opens the body only on a maybe.
import { sha256Hex } from '../fs/hash.js';
import type { MessageRecord, SupersessionMark } from '../record/message-index.js';
import type { AgentId } from '../record/types.js';
import type { Folded } from './fold.js';
import { fold } from './fold.js';
import { encodeBody, openBody, type SegmentBody } from './segment-body.js';

/**
 * 2: a binary body with the texts in one block (1 was one JSON document). A file of another format
 * is never read as this one: the cache skips it, and the index format's bump (manifest.ts) makes the
 * next sweep rebuild every shard.
 */
export const segmentFormat = 2;

export interface Segment {
  agent: AgentId;
  session_id: string;
  records: MessageRecord[];
  marks: SupersessionMark[];
  /** `replace`: these marks are the session's whole list from here on; `append`: they add. */
  marks_mode: 'append' | 'replace';
}

/** The full SHA-256 of the body names the file (never a truncated hash: two bodies must never share a name). */
export function segmentName(body: Uint8Array): string {
  return `${sha256Hex(body)}.seg`;
}

const fileMagic = 0x47534741; // "AGSG" little-endian
export const fileHeaderBytes = 12;

/** Writes the file form's header and filter into the first bytes of `file`. */
function writeFileHead(file: Buffer, filter: Uint8Array): void {
  file.writeUInt32LE(fileMagic, 0);
  file.writeUInt32LE(segmentFormat, 4);
  file.writeUInt32LE(filter.length, 8);
  file.set(filter, fileHeaderBytes);
}

/** The file form: magic, format, filter length (u32 LE each), the filter, then the body. */
export function encodeSegmentFile(body: Uint8Array, filter: Uint8Array): Buffer {
  const file = Buffer.alloc(fileHeaderBytes + filter.length + body.length);
  writeFileHead(file, filter);
  file.set(body, fileHeaderBytes + filter.length);
  return file;
}

/**
 * A segment's file built in one buffer (the body encoded behind room for the header and filter),
 * and its body as a view of it: no second copy of a big session's texts.
 */
export function segmentFile(s: Segment, folds: readonly Folded[], filter: Uint8Array): { file: Buffer; body: Buffer } {
  const reserve = fileHeaderBytes + filter.length;
  const file = encodeBody(s, s.records, folds, reserve);
  writeFileHead(file, filter);
  return { file, body: file.subarray(reserve) };
}

/** What a file's header says: ours in this format (with the filter's length), ours in another, or not ours. */
export function fileHeader(head: Uint8Array): { state: 'ok'; filterBytes: number } | { state: 'stale' } | { state: 'corrupt' } {
  if (head.length < fileHeaderBytes) return { state: 'corrupt' };
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (view.getUint32(0, true) !== fileMagic) return { state: 'corrupt' };
  if (view.getUint32(4, true) !== segmentFormat) return { state: 'stale' };
  return { state: 'ok', filterBytes: view.getUint32(8, true) };
}

/** The filter length a file's header states, or null for a header that is not ours in this format. */
export function filterLength(head: Uint8Array): number | null {
  const h = fileHeader(head);
  return h.state === 'ok' ? h.filterBytes : null;
}

export type SplitFile = { state: 'ok'; filter: Buffer; body: Buffer } | { state: 'stale' } | { state: 'corrupt' };

/** Splits a file into its filter and body; `stale` for another format of ours, `corrupt` when the framing is broken. */
export function splitSegmentFile(buf: Buffer): SplitFile {
  const h = fileHeader(buf);
  if (h.state !== 'ok') return h;
  if (fileHeaderBytes + h.filterBytes > buf.length) return { state: 'corrupt' };
  const at = fileHeaderBytes + h.filterBytes;
  return { state: 'ok', filter: buf.subarray(fileHeaderBytes, at), body: buf.subarray(at) };
}

/** The body's bytes; `folds` (the records' folds, when the caller has them) saves folding twice. */
export function serialiseSegment(s: Segment, folds?: readonly Folded[]): Buffer {
  return encodeBody(s, s.records, folds ?? s.records.map((r) => fold(r.text)));
}

/**
 * Reads a generation file whole, as the sweep does before it merges or rewrites a shard: its body
 * must hash to `name` (the full SHA-256, where a query checks the cheaper CRC) and every record must
 * be well-formed; null otherwise (the caller rebuilds the session from its source).
 */
export function parseSegment(name: string, file: Buffer): Segment | null {
  const parts = splitSegmentFile(file);
  if (parts.state !== 'ok' || sha256Hex(parts.body) !== name.replace(/\.seg$/, '')) return null;
  const body = openBody(parts.body);
  const records = body?.records() ?? null;
  if (body === null || records === null) return null;
  const { agent, session_id: sessionId, marks, marks_mode: mode } = body.head;
  return { agent, session_id: sessionId, records, marks, marks_mode: mode };
}

export type OpenedSegment = { state: 'ok'; body: SegmentBody } | { state: 'stale' } | { state: 'corrupt' };

/** Opens a generation file for queries: framing and CRC checked, records read on demand (segment-body.ts). */
export function openSegment(file: Buffer): OpenedSegment {
  const parts = splitSegmentFile(file);
  if (parts.state !== 'ok') return parts;
  const body = openBody(parts.body);
  return body === null ? { state: 'corrupt' } : { state: 'ok', body };
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
