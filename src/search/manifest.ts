// The store's one mutable file: which segments make each session's shard, the cursors they were read
// to, and a revision that pins query snapshots (seed 000 "The shard store").
import { nodeCrypto } from '../fs/crypto.js';
import { z } from 'zod';
import { agentIds, type AgentId } from '../record/types.js';
import type { JsonValue } from '../record/message-index.js';
import type { FileCursor } from './file-cursor.js';

export const manifestSchema = 1;
/**
 * The index format: bumped when what the store holds changes meaning. A store written by a newer
 * format is never written by an older agentlog (parser-version guard); a store of an older format is
 * read by no query (it answers `building`) and rebuilt from the sources by the next sweep.
 * 2: generation files in segment format 2 (segment.ts).
 */
export const indexFormat = 2;
/** The seed's rolling window; `0` keeps all history. */
export const defaultWindowDays = 14;

const jsonValue: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(jsonValue), z.record(z.string(), jsonValue)]),
);

const cursorSchema = z.object({
  path: z.string(),
  dev: z.number(),
  ino: z.number(),
  len: z.number().int().nonnegative(),
  mtime_ns: z.string(),
  offset: z.number().int().nonnegative(),
  mode: z.enum(['append', 'whole']),
  prefix_hash: z.string(),
  tail_hash: z.string(),
  captured_ms: z.number(),
});

const segmentRefSchema = z.object({
  file: z.string().regex(/^[0-9a-f]{64}\.seg$/),
  records: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type SegmentRef = z.infer<typeof segmentRefSchema>;

const entrySchema = z.object({
  agent: z.enum(agentIds),
  session_id: z.string(),
  /** The agent extractor's version the shard was built with. */
  extractor_version: z.number().int(),
  segments: z.array(segmentRefSchema),
  records: z.number().int().nonnegative(),
  /** Newest and oldest record time (0 when the session said nothing yet). */
  newest_ts_ms: z.number(),
  oldest_ts_ms: z.number(),
  /** Newest source-file mtime: retention keeps the entry while its files are in the window. */
  source_mtime_ms: z.number(),
  /** Bytes consumed over every cursor: a publish that lowers it over the same sources is stale. */
  watermark: z.number().nonnegative(),
  generation: z.number().int().nonnegative(),
  /** Marks or older generations exist: deriving activity needs every segment. */
  supersession: z.boolean(),
  /** Digest of the extractor's last `replace` mark list, so an unchanged list writes no segment. */
  marks_digest: z.string(),
  cursors: z.array(cursorSchema),
  /** Files discovery lists for the session that the extractor does not read (sidecars). */
  ignored: z.array(z.string()),
  carry: jsonValue,
  /** The agent home the shard was read from (a vendor home, or a kept copy). */
  home: z.string(),
  source_gone: z.boolean().optional(),
  /** What the session's records can never hold, in its reader's words (repeated in search coverage). */
  coverage_notes: z.record(z.string(), z.string()).optional(),
});
export type ManifestEntry = z.infer<typeof entrySchema>;

const envelopeSchema = z.object({
  schema: z.literal(manifestSchema),
  format: z.number().int(),
  /** Random per store lifetime; a rebuilt (quarantined) manifest gets a new one. */
  epoch: z.string(),
  revision: z.number().int().nonnegative(),
  updated_at_ms: z.number(),
  window_days: z.number().int().nonnegative(),
  sessions: z.record(z.string(), z.unknown()),
});
export type Manifest = Omit<z.infer<typeof envelopeSchema>, 'sessions'> & { sessions: Record<string, ManifestEntry> };

/** The full schema of one entry, for tests that hold the hand-written check below to it. */
export const manifestEntrySchema = entrySchema;

const isNat = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isJson(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || isNum(v)) return true;
  if (depth > 32) return false;
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  return isObj(v) && Object.values(v).every((x) => isJson(x, depth + 1));
}

function isCursor(v: unknown): boolean {
  return (
    isObj(v) &&
    isStr(v.path) &&
    isNum(v.dev) &&
    isNum(v.ino) &&
    isNat(v.len) &&
    isStr(v.mtime_ns) &&
    isNat(v.offset) &&
    (v.mode === 'append' || v.mode === 'whole') &&
    isStr(v.prefix_hash) &&
    isStr(v.tail_hash) &&
    isNum(v.captured_ms)
  );
}

const segmentFile = /^[0-9a-f]{64}\.seg$/;

/**
 * The entry schema checked by hand: a manifest holds thousands of entries and tens of thousands of
 * cursors, and a generic validator spends longer on them than the whole rest of a sweep. Mirrors
 * `entrySchema` field for field (a test holds the two together).
 */
export function isManifestEntry(v: unknown): v is ManifestEntry {
  if (!isObj(v)) return false;
  if (
    !isStr(v.agent) ||
    !(agentIds as readonly string[]).includes(v.agent) ||
    !isStr(v.session_id) ||
    !Number.isInteger(v.extractor_version)
  )
    return false;
  if (
    !Array.isArray(v.segments) ||
    !v.segments.every((s) => isObj(s) && isStr(s.file) && segmentFile.test(s.file) && isNat(s.records) && isNat(s.bytes))
  )
    return false;
  if (
    !isNat(v.records) ||
    !isNum(v.newest_ts_ms) ||
    !isNum(v.oldest_ts_ms) ||
    !isNum(v.source_mtime_ms) ||
    !isNum(v.watermark) ||
    v.watermark < 0 ||
    !isNat(v.generation)
  )
    return false;
  if (typeof v.supersession !== 'boolean' || !isStr(v.marks_digest) || !isStr(v.home)) return false;
  if (!Array.isArray(v.cursors) || !v.cursors.every(isCursor)) return false;
  if (!Array.isArray(v.ignored) || !v.ignored.every(isStr)) return false;
  if (v.source_gone !== undefined && typeof v.source_gone !== 'boolean') return false;
  if (v.coverage_notes !== undefined && !(isObj(v.coverage_notes) && Object.values(v.coverage_notes).every(isStr))) return false;
  return isJson(v.carry);
}

// The cursor type is declared once in file-cursor.ts; this keeps the schema honest about it.
const cursorShapeCheck: FileCursor = {} as z.infer<typeof cursorSchema>;
void cursorShapeCheck;

export function newEpoch(): string {
  return nodeCrypto().randomBytes(6).toString('hex');
}

export function emptyManifest(nowMs: number, windowDays = defaultWindowDays): Manifest {
  return {
    schema: manifestSchema,
    format: indexFormat,
    epoch: newEpoch(),
    revision: 0,
    updated_at_ms: nowMs,
    window_days: windowDays,
    sessions: {},
  };
}

/** `<agent>:<session id>`: one spelling for the key and the agent field alike. */
export function entryKey(agent: AgentId, sessionId: string): string {
  return `${agent}:${sessionId}`;
}

/** The snapshot a query cursor pins: the epoch keeps a rebuilt store's revisions from aliasing. */
export function snapshotId(m: Pick<Manifest, 'epoch' | 'revision'>): string {
  return `${m.epoch}.${m.revision}`;
}

export type ManifestRead =
  | { state: 'missing' }
  | { state: 'ok'; manifest: Manifest }
  | { state: 'corrupt'; reason: string; revision: number | null };

/** Parses manifest bytes; a corrupt one reports the revision it still shows, if any, so counting can go on. */
export function parseManifest(body: string): ManifestRead {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (error) {
    const m = /"revision":(\d+)/.exec(body);
    return { state: 'corrupt', reason: error instanceof Error ? error.message : String(error), revision: m !== null ? Number(m[1]) : null };
  }
  const parsed = envelopeSchema.safeParse(raw);
  const rev = (raw as { revision?: unknown } | null)?.revision;
  const revision = isNat(rev) ? rev : null;
  if (!parsed.success) return { state: 'corrupt', reason: parsed.error.message.slice(0, 200), revision };
  for (const [key, entry] of Object.entries(parsed.data.sessions)) {
    if (!isManifestEntry(entry)) return { state: 'corrupt', reason: `entry ${key} is malformed`, revision };
  }
  return { state: 'ok', manifest: parsed.data as Manifest };
}

/**
 * Each entry's JSON bytes (`"<key>":{…}`), kept while the entry object lives. A sweep that changes
 * one session rewrote the whole manifest through `JSON.stringify` and UTF-8 encoding: ~7 MB and
 * ~80 ms of CPU on the bench home, where one appended message costs a few ms more. Entries are
 * replaced, never changed in place (`ManifestWriter.put`, `{ ...entry, … }` updates), and an entry is
 * frozen once its bytes are kept, so a change in place throws instead of writing stale bytes. The
 * cost: a held manifest's bytes are kept beside it (~7 MB on the bench home, in serve's memory).
 */
const entryBytes = new WeakMap<ManifestEntry, { key: string; bytes: Buffer }>();
const comma = Buffer.from(',');
const closing = Buffer.from('}}');

function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  for (const x of Object.values(v)) deepFreeze(x);
}

function entryJson(key: string, entry: ManifestEntry): Buffer {
  const kept = entryBytes.get(entry);
  if (kept !== undefined && kept.key === key) return kept.bytes;
  const bytes = Buffer.from(`${JSON.stringify(key)}:${JSON.stringify(entry)}`);
  deepFreeze(entry);
  entryBytes.set(entry, { key, bytes });
  return bytes;
}

/** The manifest's JSON: what `JSON.stringify` writes, with `sessions` last. */
export function serialiseManifest(m: Manifest): Buffer {
  const { sessions, ...envelope } = m;
  const head = JSON.stringify(envelope);
  const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)}${head === '{}' ? '' : ','}"sessions":{`)];
  let first = true;
  for (const [key, entry] of Object.entries(sessions)) {
    if (!first) parts.push(comma);
    parts.push(entryJson(key, entry));
    first = false;
  }
  parts.push(closing);
  return Buffer.concat(parts);
}
