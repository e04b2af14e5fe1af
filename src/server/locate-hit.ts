// Jump-to-hit (seed 000 "Jump-to-hit", research §7.5): a search locator resolved against the session
// as it is now. The agent's own extractor re-reads the session, so a locator resolves only when
// extraction still mints exactly it (content hashes included); then the entry holding that message is
// found in the transcript (main or a subagent's) by its offset, line, or id, else by time (nearest).
import { join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import type { Located } from '../custody/index.js';
import { isInside, lstatOrNull, readFull } from '../custody/safe-fs.js';
import type { Locator, MessageRecord } from '../record/message-index.js';
import type { Anchor } from './api-types.js';
import type { LineIndex } from './line-index.js';
import { readEntries } from './line-index.js';

export type LocatePlan =
  | { state: 'stale' | 'unavailable'; reason: string }
  | { state: 'found'; thread: string | null; record: MessageRecord };

const nativeKinds = new Set<Locator['kind']>(['native_message_id', 'native_event', 'native_sidecar_span']);

function sameLocator(a: Locator, b: Locator): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.join() !== kb.join()) return false;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return ka.every((k) => ra[k] === rb[k]);
}

/** Same place, whatever the content: a locator at this position minted with another hash means the message changed. */
function samePlace(a: Locator, b: Locator): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'external_line' && b.kind === 'external_line') return a.line_offset === b.line_offset && a.file === b.file;
  if (a.kind === 'native_event' && b.kind === 'native_event') return a.line_no === b.line_no;
  if (a.kind === 'native_sidecar_span' && b.kind === 'native_sidecar_span') return a.file === b.file && a.offset === b.offset;
  return false;
}

interface Extracted {
  key: string;
  records: MessageRecord[];
}
const extracted: Extracted[] = [];

/** The session's records as its extractor mints them now (the last few sessions are remembered by file state). */
async function recordsOf(loc: Located): Promise<MessageRecord[] | null> {
  const extractor = loc.reader.messages;
  if (extractor === undefined) return null;
  const session = await loc.session();
  const key = `${loc.agent}:${loc.sessionId}:${session.files.map((f) => `${f.path}:${f.size}:${f.mtimeMs}`).join('|')}`;
  const hit = extracted.find((e) => e.key === key);
  if (hit !== undefined) return hit.records;
  const out = await extractor.extract(session, null);
  extracted.unshift({ key, records: out.records });
  extracted.length = Math.min(extracted.length, 4);
  return out.records;
}

/** What the locator points at now, or why it cannot be followed. */
export async function planLocate(loc: Located, locator: Locator): Promise<LocatePlan> {
  const native = nativeKinds.has(locator.kind);
  if (native !== (loc.reader.messages.nativeLocators === true))
    return { state: 'unavailable', reason: `a ${locator.kind} locator does not belong to a ${loc.reader.displayName} session` };
  const file = 'file' in locator && locator.kind !== 'native_sidecar_span' ? locator.file : undefined;
  if (file !== undefined) {
    const path = join(loc.rootPath, file);
    if (!isInside(loc.rootPath, path) || (await lstatOrNull(path).catch(() => null))?.isFile() !== true)
      return { state: 'unavailable', reason: 'the subagent transcript the message was in is no longer there' };
  }
  const records = await recordsOf(loc);
  if (records === null) return { state: 'unavailable', reason: `${loc.reader.displayName} sessions have no message index to locate in` };
  const record = records.find((r) => sameLocator(r.locator, locator));
  if (record !== undefined) return { state: 'found', thread: file ?? null, record };
  if (records.some((r) => samePlace(r.locator, locator))) return { state: 'stale', reason: 'the message at that place in the log changed' };
  if (locator.kind === 'external_line' || locator.kind === 'native_event' || locator.kind === 'native_sidecar_span')
    return { state: 'stale', reason: 'the log no longer holds that message (rewritten or truncated)' };
  return { state: 'unavailable', reason: 'the message was not found in the session log' };
}

/** The first byte offset at or after `from` where `needle` occurs in the file, or -1. */
async function findBytes(handle: FileHandle, needle: Buffer, size: number): Promise<number> {
  const chunk = 1 << 20;
  const buf = Buffer.allocUnsafe(chunk + needle.length);
  let carry = 0;
  for (let pos = 0; pos < size; ) {
    const n = await readFull(handle, buf.subarray(carry), Math.min(chunk, size - pos), pos);
    if (n === 0) break;
    const at = buf.subarray(0, carry + n).indexOf(needle);
    if (at !== -1) return pos - carry + at;
    const keep = Math.min(needle.length - 1, carry + n);
    buf.copy(buf, 0, carry + n - keep, carry + n);
    carry = keep;
    pos += n;
  }
  return -1;
}

function entryContaining(index: LineIndex, offset: number): number {
  let lo = 0;
  let hi = index.count - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (index.start(mid) <= offset) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/** The entry nearest in time: the last one at or before `tsMs`, else the first (entries without a time are skipped). */
async function nearestByTime(handle: FileHandle, index: LineIndex, tsMs: number): Promise<number> {
  let best = -1;
  const step = 512;
  for (let from = 0; from < index.count; from += step) {
    const page = await readEntries(handle, index, from, Math.min(index.count, from + step));
    for (const [i, e] of page.entries()) {
      const t = e.timestamp === null ? Number.NaN : Date.parse(e.timestamp);
      if (Number.isNaN(t)) continue;
      if (t > tsMs) return best === -1 ? from + i : best;
      best = from + i;
    }
  }
  return Math.max(best, 0);
}

/** Ids found verbatim as a JSON string in the line; a qualified id (`<agent>:<id>`) also by its last part. */
function idNeedles(locator: Locator): string[] {
  const ids =
    locator.kind === 'external_record_id' ? [locator.record_id] : locator.kind === 'native_message_id' ? [locator.message_id] : [];
  const out: string[] = [];
  for (const id of ids) {
    out.push(JSON.stringify(id));
    const colon = id.lastIndexOf(':');
    if (colon > 0 && colon < id.length - 1) out.push(JSON.stringify(id.slice(colon + 1)));
  }
  if (locator.kind === 'native_sidecar_span') out.push(JSON.stringify(locator.file));
  return out;
}

/** The entry (position in the transcript) holding the located record, and whether it is that very line. */
export async function anchorEntry(
  handle: FileHandle,
  index: LineIndex,
  plan: Extract<LocatePlan, { state: 'found' }>,
): Promise<{ totalIndex: number; anchor: Anchor } | null> {
  if (index.count === 0) return null;
  const locator = plan.record.locator;
  if (locator.kind === 'external_line') {
    const i = index.indexOfOffset(locator.line_offset);
    if (i !== -1) return { totalIndex: i, anchor: 'exact' };
  } else if (locator.kind === 'native_event') {
    if (locator.line_no === 0) return { totalIndex: 0, anchor: 'nearest' };
    const i = index.indexOfLine(locator.line_no);
    if (i !== -1) return { totalIndex: i, anchor: index.lineNumber(i) === locator.line_no ? 'exact' : 'nearest' };
  } else {
    for (const needle of idNeedles(locator)) {
      const at = await findBytes(handle, Buffer.from(needle), index.end);
      if (at !== -1) {
        const i = entryContaining(index, at);
        if (i !== -1) return { totalIndex: i, anchor: 'exact' };
      }
    }
  }
  return { totalIndex: await nearestByTime(handle, index, plan.record.ts_ms), anchor: 'nearest' };
}
