// The message-search store on disk (seed 000 "The shard store"): immutable content-named generation
// files (each with its n-gram filter), one manifest replaced atomically, tombstones in their own
// append-only file (so a corrupt-manifest rebuild keeps them), and quarantine for what is corrupt.
import { nodeCrypto } from '../fs/crypto.js';
import { statSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from '../fs/atomic-write.js';
import { errorCode, isNotFound } from '../fs/errors.js';
import { emptyManifest, indexFormat, parseManifest, serialiseManifest, type Manifest, type ManifestRead } from './manifest.js';
import { SearchError } from './errors.js';
import { z } from 'zod';

/** `<state root>/cache/message_search/v1`. */
export function storeRoot(stateRoot: string): string {
  return join(stateRoot, 'cache', 'message_search', 'v1');
}

export const storePaths = (root: string) =>
  ({
    manifest: join(root, 'manifest.json'),
    generations: join(root, 'generations'),
    tombstones: join(root, 'tombstones.jsonl'),
    quarantine: join(root, 'quarantine'),
    lastSweep: join(root, 'last-sweep.json'),
  }) as const;

export async function ensureStore(root: string): Promise<void> {
  await mkdir(join(root, 'generations'), { recursive: true, mode: 0o700 });
  await mkdir(join(root, 'quarantine'), { recursive: true, mode: 0o700 });
}

/** Writes `data` to `path` atomically (temp, fsync, rename, folder fsync): the one atomic write. */
export { writeFileAtomic as writeAtomic } from '../fs/atomic-write.js';

/** The manifest file's identity and version (inode, size, mtime): changes whenever it is replaced. */
export async function manifestStamp(root: string): Promise<string | null> {
  try {
    const s = await stat(storePaths(root).manifest, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Reads the manifest without changing anything (queries never quarantine: only the writer does). */
export async function readManifest(root: string): Promise<ManifestRead> {
  let body: string;
  try {
    body = await readFile(storePaths(root).manifest, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return { state: 'missing' };
    throw error;
  }
  return parseManifest(body);
}

/** Throws when the store was written by a newer index format than this agentlog knows. */
export function guardFormat(m: Manifest): void {
  if (m.format > indexFormat) {
    throw new SearchError(
      'IndexNewer',
      `the search index was written by a newer agentlog (index format ${m.format}, this one knows ${indexFormat}); upgrade agentlog, or delete the index to rebuild it`,
    );
  }
}

/**
 * The manifest this process last wrote or opened for writing, with the file stamp it had. A process
 * that sweeps again and again (the index loop) finds the file still at that stamp and skips reading
 * and parsing megabytes of cursors; any other writer replaces the file, so the stamp moves and the
 * file is read. One root only: memory stays bounded by the one manifest a sweep holds anyway.
 * Entries are never changed in place (a change puts a new entry), so copying the session map is enough.
 */
let known: { root: string; stamp: string; manifest: Manifest } | null = null;

const copyOf = (m: Manifest): Manifest => ({ ...m, sessions: { ...m.sessions } });

/** Notes `m` as the content of the manifest file at `stamp` (after this process wrote or read it). */
export function rememberManifest(root: string, stamp: string | null, m: Manifest): void {
  known = stamp === null ? null : { root, stamp, manifest: copyOf(m) };
}

/**
 * Opens the manifest for writing (under the writer lock). A corrupt manifest is moved to
 * `quarantine/manifest.corrupt-<ms>` and replaced by an empty one with a new epoch; its revision
 * count continues where the corrupt file still shows one, so the revision never runs backwards.
 */
export async function openManifestForWrite(
  root: string,
  nowMs: number,
  windowDays: number,
): Promise<{ manifest: Manifest; quarantined: string | null; stamp: string | null }> {
  // Stamped before the read: a write in between makes the stamp stale, never the content.
  const stamp = await manifestStamp(root);
  if (stamp !== null && known !== null && known.root === root && known.stamp === stamp)
    return { manifest: copyOf(known.manifest), quarantined: null, stamp };
  const read = await readManifest(root);
  if (read.state === 'ok') {
    guardFormat(read.manifest);
    if (read.manifest.format < indexFormat)
      return {
        manifest: { ...emptyManifest(nowMs, read.manifest.window_days), revision: read.manifest.revision },
        quarantined: null,
        stamp,
      };
    rememberManifest(root, stamp, read.manifest);
    return { manifest: read.manifest, quarantined: null, stamp };
  }
  if (read.state === 'missing') return { manifest: emptyManifest(nowMs, windowDays), quarantined: null, stamp };
  const paths = storePaths(root);
  const dest = join(paths.quarantine, `manifest.corrupt-${nowMs}-${nodeCrypto().randomBytes(3).toString('hex')}`);
  await rename(paths.manifest, dest).catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  });
  return { manifest: { ...emptyManifest(nowMs, windowDays), revision: read.revision ?? 0 }, quarantined: dest, stamp: null };
}

/** Moves a corrupt state file into `quarantine/` (kept for a look, never trusted); returns where it went. */
export async function quarantineFile(root: string, path: string, nowMs: number): Promise<string> {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.json$/, '');
  const dest = join(storePaths(root).quarantine, `${name}.corrupt-${nowMs}-${nodeCrypto().randomBytes(3).toString('hex')}`);
  await rename(path, dest);
  return dest;
}

/** Replaces the manifest atomically, bumping its revision; returns it with its new stamp. */
export async function writeManifest(root: string, m: Manifest, nowMs: number): Promise<Manifest> {
  const next: Manifest = { ...m, revision: m.revision + 1, updated_at_ms: nowMs };
  await writeFileAtomic(storePaths(root).manifest, serialiseManifest(next));
  return next;
}

export function generationPath(root: string, file: string): string {
  return join(storePaths(root).generations, file);
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/**
 * Writes a generation file and its filter unless already present (content naming dedupes). No
 * fsync: they are re-derivable, and one torn by a power loss fails its content hash, is quarantined
 * and re-extracted; the manifest that names them is always synced.
 */
export function writeGeneration(root: string, file: string, data: Uint8Array): void {
  const gpath = generationPath(root, file);
  if (!exists(gpath)) writeFileAtomicSync(gpath, data, { durable: false });
}

/** Moves a corrupt generation file aside; the next sweep sees it missing and re-extracts its session. */
export async function quarantineGeneration(root: string, file: string, nowMs: number): Promise<void> {
  const dest = join(storePaths(root).quarantine, `${file}.corrupt-${nowMs}`);
  await mkdir(storePaths(root).quarantine, { recursive: true, mode: 0o700 }).catch(() => undefined);
  await rename(generationPath(root, file), dest).catch((error: unknown) => {
    if (!isNotFound(error)) throw error;
  });
}

/** The generation files present (one directory read; the sweep checks every shard against it). */
export async function listGenerations(root: string): Promise<Set<string>> {
  try {
    return new Set((await readdir(storePaths(root).generations)).filter((n) => n.endsWith('.seg')));
  } catch (error) {
    if (isNotFound(error)) return new Set();
    throw error;
  }
}

// --- tombstones -------------------------------------------------------------------------------

export type Tombstones = Map<string, number>;

const tombstoneSchema = z.object({ key: z.string().min(1), at_ms: z.number().finite() });

function parseLine(line: string): z.infer<typeof tombstoneSchema> | null {
  try {
    const r = tombstoneSchema.safeParse(JSON.parse(line));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Reads `tombstones.jsonl` (`{"key":…,"at_ms":…}` per line). Only a last line with no newline (a
 * writer killed mid-append) is skipped; any other line that is not a tombstone is an error naming
 * the file and the line, since dropping it would let a deleted session back into the index.
 */
export async function readTombstones(root: string): Promise<Tombstones> {
  const out: Tombstones = new Map();
  const path = storePaths(root).tombstones;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return out;
    throw error;
  }
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line === '') continue;
    const v = parseLine(line);
    if (v !== null) {
      out.set(v.key, Math.max(out.get(v.key) ?? 0, v.at_ms));
      continue;
    }
    if (i === lines.length - 1) continue;
    throw new SearchError(
      'StateCorrupt',
      `${path} line ${i + 1} is not a tombstone ({"key":"<agent>:<session>","at_ms":<time>}): fix that line, or delete it to let the session it named back into the index`,
    );
  }
  return out;
}

export async function appendTombstone(root: string, key: string, atMs: number): Promise<void> {
  await appendFile(storePaths(root).tombstones, `${JSON.stringify({ key, at_ms: atMs })}\n`, { mode: 0o600 });
}

export async function rewriteTombstones(root: string, t: Tombstones): Promise<void> {
  const body = [...t].map(([key, at_ms]) => `${JSON.stringify({ key, at_ms })}\n`).join('');
  await writeFileAtomic(storePaths(root).tombstones, body);
}

// --- garbage ----------------------------------------------------------------------------------

/**
 * Deletes generation files no manifest entry references, and temp files left by a
 * killed writer, once older than `graceMs` (a query may still be reading an older snapshot).
 */
export async function collectGarbage(root: string, referenced: ReadonlySet<string>, nowMs: number, graceMs: number): Promise<number> {
  let removed = 0;
  const dirs = [storePaths(root).generations, root];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (isNotFound(error)) continue;
      throw error;
    }
    for (const name of names) {
      const isTemp = name.endsWith('.tmp');
      const isGeneration = dir !== root && name.endsWith('.seg');
      if (!isTemp && !(isGeneration && !referenced.has(name))) continue;
      const path = join(dir, name);
      try {
        const s = await stat(path);
        if (nowMs - s.mtimeMs < graceMs) continue;
        await unlink(path);
        removed++;
      } catch (error) {
        if (!isNotFound(error) && errorCode(error) !== 'EBUSY') throw error;
      }
    }
  }
  return removed;
}
