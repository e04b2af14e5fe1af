// The scan's index of session ids, written beside the scan cache: which agent and file hold each id
// (with the cache key the scan saw) and the ctimes of the folders those files lie in, so `show`,
// `tail` and `rename` find a session by id or unique prefix without walking every home. A few
// hundred KiB against the scan cache's MiBs: reading it costs less than the walk it saves.
import { nodeCrypto } from '../fs/crypto.js';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import type { DiscoveredSession, FileProblem } from '../agents/types.js';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { errorMessage } from '../fs/errors.js';
import { readBytesSync } from '../fs/read-exact.js';
import { agentIds } from '../record/types.js';
import type { FolderSeen } from './discovery-cache.js';

/** Bump when the file's shape changes: another version is ignored (the lookup walks). */
export const sessionIndexVersion = 3;

/**
 * A folder whose ctime is this close to the moment it was read is not trusted: the kernel's clock
 * ticks coarsely (milliseconds), so a file added in the same tick would leave the ctime as read.
 */
const racyMs = 2000;
/** The stamp recorded for a folder that was absent (a home no agent has created yet). */
const absent = -1;
/** The stamp recorded for a folder read too close to a change to prove anything (see racyMs). */
const racy = -2;

interface IndexFile {
  version: typeof sessionIndexVersion;
  readerVersion: string;
  /** `agent\0home` for every home the scan walked: a prefix is answered only inside these. */
  homes: string[];
  /** `[id, agent, path, key]` per session. */
  sessions: [string, string, string, string][];
  /**
   * Each home and every folder from one down to a session's main file: ctimeMs, or absent/racy. The
   * ctime, not the mtime: adding an entry moves both, but `touch -r` (or an archive unpacked) puts the
   * mtime back, never the ctime.
   */
  folders: Record<string, number>;
  /** Files several sessions are read from (a database): `size:mtimeMs`, as a new session there changes no folder. */
  containers: Record<string, string>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown, n?: number): v is string[] =>
  Array.isArray(v) && (n === undefined || v.length === n) && v.every((x) => typeof x === 'string');

/**
 * The index file checked by hand, field by field: a zod pass over thousands of entries cost more
 * than the walk it saves (measured), and every entry is claimed and keyed again before it is trusted.
 */
function asIndexFile(v: unknown): IndexFile | null {
  if (!isRecord(v) || v.version !== sessionIndexVersion || typeof v.readerVersion !== 'string') return null;
  const { homes, sessions, folders, containers } = v;
  if (!isStrings(homes) || !Array.isArray(sessions) || !sessions.every((s) => isStrings(s, 4))) return null;
  if (!isRecord(folders) || !Object.values(folders).every((m) => typeof m === 'number')) return null;
  if (!isRecord(containers) || !Object.values(containers).every((m) => typeof m === 'string')) return null;
  return v as unknown as IndexFile;
}

export interface IndexedSession {
  id: string;
  agent: string;
  path: string;
  key: string;
}

/** The index as the lookup reads it. */
export interface SessionIndex {
  sessions: IndexedSession[];
  /** `agent\0home` pairs the scan covered. */
  homes: Set<string>;
  /**
   * True when no folder under the covered homes and no shared file changed since the scan wrote the
   * index: then no session was added, and a prefix only one indexed session has is unique.
   */
  unchanged(): boolean;
}

/** The index file under a state root. */
export function sessionIndexPath(stateRoot: string): string {
  return join(stateRoot, 'cache', 'scan', 'ids.json');
}

/**
 * The digest file beside the index: what the last written index was made from (readers' version,
 * homes, sessions with their keys, shared files' stamps) and the stat of the index it wrote. An
 * unchanged scan that finds both the same skips the folder walk and the write; a lookup that finds
 * a folder moved removes it, so the next scan records the folder again.
 */
function digestPath(stateRoot: string): string {
  return join(stateRoot, 'cache', 'scan', 'ids.digest');
}

/** The stat of the index file as the digest file records it, or null when it is absent or unreachable. */
function indexStamp(path: string): string | null {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st === undefined ? null : `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
  } catch {
    return null; // not a folder on the way (ENOTDIR), no permission: the write below says so
  }
}

function readDigest(stateRoot: string): string | null {
  try {
    return readFileSync(digestPath(stateRoot), 'utf8');
  } catch {
    return null;
  }
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const homeKey = (agent: string, home: string): string => `${agent}\u0000${home}`;

function folderCtime(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.ctimeMs ?? absent;
}

/**
 * What the index records for a folder: its ctime, if it was already old enough to prove anything
 * (racyMs) when it was read: as discovery listed it, else as stat'ed now.
 */
function folderStamp(path: string, now: number, listed?: FolderSeen): number {
  const { ctimeMs, at } = listed ?? { ctimeMs: folderCtime(path), at: now };
  if (ctimeMs === absent) return absent;
  return at - ctimeMs < racyMs ? racy : ctimeMs;
}

function containerStamp(path: string): string {
  const st = statSync(path, { throwIfNoEntry: false });
  // Size and mtime, not the ctime: SQLite's read-only open and close of an empty write-ahead log
  // moves its ctime, so any reader of the database (a `show`) would send the next prefix to a walk.
  return st === undefined ? 'absent' : `${st.size}:${st.mtimeMs}`;
}

/**
 * The folder of the session's main file and those above it up to its home (inclusive): a new
 * session adds its main file to one of them, or a new folder to one of them.
 */
function foldersOf(session: DiscoveredSession, into: Set<string>): void {
  const main = session.files[0];
  if (main === undefined) return;
  for (let dir = dirname(main.path); dir.startsWith(session.home) && !into.has(dir); dir = dirname(dir)) {
    into.add(dir);
    if (dir === session.home || dirname(dir) === dir) break;
  }
}

/**
 * Writes the index for what a scan found (skipped when the same file is there already). Returns
 * what was wrong with the file there (not an index: rebuilt) or why it could not be written, else null.
 * `listedCtime`: a folder's ctime as the scan's discovery listed it, and when (else it is stat'ed here).
 */
export async function writeSessionIndex(
  stateRoot: string,
  readerVersion: string,
  roots: readonly { agent: string; path: string }[],
  sessions: readonly { session: DiscoveredSession; key: string }[],
  now: () => number = Date.now,
  listedCtime: (dir: string) => FolderSeen | undefined = () => undefined,
  looked: ReadonlySet<string> = new Set(agentIds),
): Promise<FileProblem | null> {
  // Sorted, so that an unchanged home writes the same text and the file is left alone: the order
  // of Aider's homes (the known projects) moves from one scan to the next. Agents keep the scan's order.
  const rank = new Map<string, number>();
  for (const { session } of sessions) if (!rank.has(session.agent)) rank.set(session.agent, rank.size);
  const byAgentThenPath = (a: DiscoveredSession, b: DiscoveredSession): number =>
    (rank.get(a.agent) ?? 0) - (rank.get(b.agent) ?? 0) || byText(a.path, b.path);
  const path = sessionIndexPath(stateRoot);
  // `scan --agent` looks at some agents: the others' part of the index stays, or `show` of one of
  // their sessions would walk every home until the next full scan.
  const partial = !agentIds.every((id) => looked.has(id));
  // The index there, read once: what a partial scan carries over, and what the new text is compared with.
  const there = partial ? indexText(path) : undefined;
  const kept = there === undefined || there === null ? null : carried(there, readerVersion, looked);
  const homes = [...roots.map((r) => homeKey(r.agent, r.path)), ...(kept?.homes ?? [])].sort(byText);
  const rows = [...sessions]
    .sort((a, b) => byAgentThenPath(a.session, b.session))
    .map(({ session, key }): [string, string, string, string] => [session.sessionId, session.agent, session.path, key]);
  if (kept !== null) rows.push(...kept.sessions);
  // What the index is made of but its folders and shared files: the same sessions and keys as the
  // index there was written for (and that index untouched since) leave nothing to write. A key
  // covers the size and mtime of every file of its session, shared files (a database) included. A folder
  // that moved with no session changed is found by the lookup, which drops the digest (see unchanged()).
  const digest = nodeCrypto()
    .createHash('sha1')
    .update(JSON.stringify([readerVersion, homes, rows]))
    .digest('base64url');
  const stampBefore = indexStamp(path);
  // The file there must be of this layout too: an index an older agentlog wrote for the same sessions
  // matches the digest, and lookups ignore it (every `show` walking all homes) until a session changes.
  if (stampBefore !== null && readDigest(stateRoot) === `${digest} ${stampBefore}` && startsAsThisLayout(path, readerVersion)) return null;

  const fileUse = new Map<string, number>();
  for (const { session } of sessions) for (const f of session.files) fileUse.set(f.path, (fileUse.get(f.path) ?? 0) + 1);
  const containers: Record<string, string> = { ...kept?.containers };
  // Shared files only, then sorted: sorting every file of a large home first cost more than the rest (measured).
  const shared = [...fileUse].flatMap(([file, uses]) => (uses > 1 ? [file] : [])).sort(byText);
  for (const file of shared) containers[file] = containerStamp(file);
  const dirs = new Set(roots.map((r) => r.path));
  for (const { session } of sessions) foldersOf(session, dirs);
  const at = now();
  const folders: Record<string, number> = {};
  for (const dir of [...dirs, ...Object.keys(kept?.folders ?? {})].sort())
    folders[dir] = dirs.has(dir) ? folderStamp(dir, at, listedCtime(dir)) : (kept?.folders[dir] ?? absent);
  const body: IndexFile = { version: sessionIndexVersion, readerVersion, homes, sessions: rows, folders, containers };
  const text = laidOut(body);
  const before = there === undefined ? indexText(path) : there;
  // No digest while a folder is racy: the next scan records it again, once its ctime proves something.
  const settled = !Object.values(folders).includes(racy);
  if (before === text) {
    if (settled) saveDigest(stateRoot, digest, path);
    return null;
  }
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // Re-derivable and checked on read (a bad file is rebuilt by a walk): no fsync.
    writeFileAtomicSync(path, text, { durable: false });
  } catch (error) {
    dropDigest(stateRoot);
    return {
      path,
      kind: 'unreadable',
      reason: `could not save the session index (${errorMessage(error)}): show, tail and rename walk every home`,
    };
  }
  if (settled) saveDigest(stateRoot, digest, path);
  else dropDigest(stateRoot);
  if (before !== null && !isIndex(before)) return { path, kind: 'unparsed', reason: 'the session index was not an index; rebuilt' };
  return null;
}

/** The index file's text, or null when it is absent or unreadable (then it is written anew). */
function indexText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The part of the index `text` that belongs to agents this scan did not look at: their homes and
 * sessions, and the folders and shared files under those homes with the stamps that scan recorded
 * (a lookup still finds any of them changed since). Nothing from an absent, other or broken index.
 */
function carried(text: string, readerVersion: string, looked: ReadonlySet<string>): Omit<IndexFile, 'version' | 'readerVersion'> | null {
  let old: IndexFile | null;
  try {
    old = asIndexFile(JSON.parse(text));
  } catch {
    return null;
  }
  if (old === null || old.readerVersion !== readerVersion) return null;
  const homes = old.homes.filter((h) => !looked.has(h.slice(0, h.indexOf('\u0000'))));
  // A path is in a home when it or a folder above it is one: a walk up the path, not a test of every
  // home per path (Aider alone has one home per known project: ~45 ms for the bench home's folders).
  const under = new Set(homes.map((h) => normalize(h.slice(h.indexOf('\u0000') + 1) + sep).slice(0, -1) || sep));
  const inHomes = (p: string): boolean => {
    for (let dir = p; ; dir = dirname(dir)) {
      if (under.has(dir)) return true;
      if (dirname(dir) === dir) return false;
    }
  };
  const pick = <T>(table: Record<string, T>): Record<string, T> => {
    const out: Record<string, T> = {};
    for (const [k, v] of Object.entries(table)) if (inHomes(k)) out[k] = v;
    return out;
  };
  return {
    homes,
    sessions: old.sessions.filter((row) => !looked.has(row[1])),
    folders: pick(old.folders),
    containers: pick(old.containers),
  };
}

/** Records the digest with the index's stat; a failure only costs the next scan its skip. */
function saveDigest(stateRoot: string, digest: string, indexPath: string): void {
  const stamp = indexStamp(indexPath);
  if (stamp === null) return;
  try {
    writeFileSync(digestPath(stateRoot), `${digest} ${stamp}`, { mode: 0o600 });
  } catch {
    dropDigest(stateRoot);
  }
}

function dropDigest(stateRoot: string): void {
  try {
    rmSync(digestPath(stateRoot), { force: true });
  } catch {
    // Unremovable: its stamp no longer matches an index rewritten later, or the same index is still right.
  }
}

/** Whether the text is an index file of some version (another version is stale, not corrupt). */
function isIndex(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text);
    return isRecord(json) && (json.version !== sessionIndexVersion || asIndexFile(json) !== null);
  } catch {
    return false;
  }
}

/** How an index of this layout, written by these readers, begins. */
function headOf(readerVersion: string): Buffer {
  return Buffer.from(`{"version":${sessionIndexVersion},"readerVersion":${JSON.stringify(readerVersion)},`);
}

/** Whether the file at `path` begins as an index of this layout by these readers (its first bytes only). */
function startsAsThisLayout(path: string, readerVersion: string): boolean {
  const head = headOf(readerVersion);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    return readBytesSync(fd, 0, head.length).equals(head);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The index as JSON with one session per line (`\n["id","agent","path","key"]`), so an exact id is
 * found by a byte search of the file instead of a parse of all of it (`indexedById`). Nothing else
 * in the text starts a line with `[`: the header, folders and containers sit on lines of their own
 * kind, and a newline inside a string is written escaped.
 */
function laidOut(body: IndexFile): string {
  const { version, readerVersion, homes, sessions, folders, containers } = body;
  const head = JSON.stringify({ version, readerVersion, homes });
  const rows = sessions.map((row) => JSON.stringify(row)).join(',\n');
  return `${head.slice(0, -1)},"sessions":[\n${rows}\n],"folders":${JSON.stringify(folders)},"containers":${JSON.stringify(containers)}}`;
}

/**
 * The index file's bytes, or null when it is absent or unreadable: a lookup reads them once, for
 * its exact id's line (`indexedById`) and, for a prefix, the whole index (`readSessionIndex`).
 */
export function readIndexBytes(stateRoot: string): Buffer | null {
  try {
    return readFileSync(sessionIndexPath(stateRoot));
  } catch {
    return null;
  }
}

/**
 * The indexed sessions whose id is exactly `id`, read from the lines that start with it (see
 * `laidOut`), each checked; null when there is no index of this version and these readers, or it
 * cannot be read. A parse of the whole index (`readSessionIndex`) cost `show` and `tail` by id
 * ~20 ms on the bench home's 2,427 sessions, growing with every session; this costs ~2 ms. A
 * damaged line is no answer: the caller walks, and every answer is claimed and keyed again anyway.
 */
export function indexedById(
  stateRoot: string,
  readerVersion: string,
  id: string,
  bytes: Buffer | null = readIndexBytes(stateRoot),
): IndexedSession[] | null {
  if (bytes === null) return null;
  const head = headOf(readerVersion);
  if (bytes.length < head.length || bytes.compare(head, 0, head.length, 0, head.length) !== 0) return null;
  const needle = Buffer.from(`\n[${JSON.stringify(id)},`);
  const found: IndexedSession[] = [];
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) {
    const end = bytes.indexOf(10, at + 1);
    if (end === -1) return null;
    const line = bytes.toString('utf8', at + 1, bytes[end - 1] === 44 /* , */ ? end - 1 : end);
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      return null;
    }
    if (!isStrings(row, 4) || row[0] !== id) return null;
    const [, agent, path, key] = row as [string, string, string, string];
    found.push({ id, agent, path, key });
  }
  return found;
}

/**
 * The index under `stateRoot` written by these readers, or null when it is absent, of another
 * version or not an index (never repaired here: the next scan rewrites it).
 */
export function readSessionIndex(
  stateRoot: string,
  readerVersion: string,
  bytes: Buffer | null = readIndexBytes(stateRoot),
): SessionIndex | null {
  if (bytes === null) return null;
  let parsed: IndexFile;
  try {
    const file = asIndexFile(JSON.parse(bytes.toString('utf8')));
    if (file === null) return null;
    parsed = file;
  } catch {
    return null;
  }
  if (parsed.readerVersion !== readerVersion) return null;
  const { folders, containers } = parsed;
  return {
    sessions: parsed.sessions.map(([id, agent, path, key]) => ({ id, agent, path, key })),
    homes: new Set(parsed.homes),
    unchanged: () => {
      const same =
        Object.entries(folders).every(([dir, ctime]) => ctime !== racy && folderCtime(dir) === ctime) &&
        Object.entries(containers).every(([file, stamp]) => containerStamp(file) === stamp);
      // A moved folder with the same sessions leaves the scan's digest as it was: dropped, the next
      // scan walks the folders and records them again.
      if (!same) dropDigest(stateRoot);
      return same;
    },
  };
}
