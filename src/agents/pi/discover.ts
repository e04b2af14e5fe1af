// Finds Pi sessions: `*.jsonl` files under `sessions/` (depth ≤ 3) whose first line is a session
// header, or whose name is `<timestamp>_<id>.jsonl` when the header is unreadable. Cheap: one
// bounded first line per file, both it and the folders remembered by the scan's discovery cache
// while the file or folder is unchanged.
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { readFirstLine, readFirstLineSync } from '../../fs/read-lines.js';
import { statFile, statFileSync } from '../../fs/stat.js';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { parseObjectLine } from '../../json/narrow.js';
import type { DiscoveredSession, Discovery, FileProblem } from '../types.js';
import type { PiBounds } from './bounds.js';
import { headerOf } from './entry.js';
import { idFromFileName, sessionIdPattern, sessionsDirName } from './layout.js';

/** What a file's first line says: no object, an object that is not a header, or a header's id and working directory. */
type Head = { kind: 'none' } | { kind: 'other' } | { kind: 'header'; id: string | null; cwd: string | null };

const orNull = (v: unknown): string | null | undefined => (v === null || typeof v === 'string' ? v : undefined);

/** A remembered `Head`; undefined for anything else. */
function decodeHead(value: unknown): Head | undefined {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return undefined;
  if (value.kind === 'none' || value.kind === 'other') return { kind: value.kind };
  if (value.kind !== 'header' || !('id' in value) || !('cwd' in value)) return undefined;
  const id = orNull(value.id);
  const cwd = orNull(value.cwd);
  return id === undefined || cwd === undefined ? undefined : { kind: 'header', id, cwd };
}

function readHead(path: string, headerBytes: number): Head {
  const first = readFirstLineSync(path, headerBytes);
  const parsed = first === null ? undefined : parseObjectLine(first);
  if (parsed === undefined) return { kind: 'none' };
  const header = headerOf(parsed);
  return header === undefined ? { kind: 'other' } : { kind: 'header', id: header.id ?? null, cwd: header.cwd ?? null };
}

/** Describes one file as a Pi session, or null when it is not one. */
export async function describePiFile(
  path: string,
  home: string,
  headerBytes: number,
  fs: DiscoveryFs = uncachedFs,
): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null || file.size === 0 || !path.endsWith('.jsonl')) return null;
  // The bound is part of the derivation: a header longer than one bound may fit another.
  const head = await fs.derive(file, `pi:head:${headerBytes}`, decodeHead, async () => readHead(path, headerBytes));
  // A first line that parses as something other than a header: not a Pi session file.
  if (head.kind === 'other') return null;
  const header = head.kind === 'header' ? head : { id: null, cwd: null };
  const headerId = header.id !== null && sessionIdPattern.test(header.id) ? header.id : undefined;
  const sessionId = headerId ?? idFromFileName(path);
  if (sessionId === undefined) return null;
  const session: DiscoveredSession = { agent: 'pi', sessionId, home, path, files: [file] };
  if (header.cwd !== null) session.cwd = header.cwd;
  return session;
}

/**
 * `*.jsonl` files under `root` (depth ≤ 3). A folder that cannot be listed, or a FIFO, socket or
 * device named like a session file, is that entry's problem: reported, and the walk goes on.
 */
async function walkJsonl(
  fs: DiscoveryFs,
  root: string,
  budget: number,
  problems: FileProblem[],
): Promise<{ files: string[]; exhausted: boolean }> {
  const files: string[] = [];
  let visited = 0;
  let level = [root];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = fs.list(dir);
      } catch (error) {
        if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
        continue;
      }
      for (const e of entries) {
        if (++visited > budget) return { files, exhausted: true };
        const path = join(dir, e.name);
        if (e.kind === 'dir') next.push(path);
        else if (!e.name.endsWith('.jsonl')) continue;
        else if (e.kind === 'file') files.push(path);
        // A FIFO, socket or device (a link is left alone, as before).
        else if (e.kind === 'other') problems.push({ path, kind: 'unreadable', reason: `${path} is not a regular file: it is not read` });
      }
    }
    level = next;
  }
  return { files: files.sort(), exhausted: false };
}

export async function discoverPi(home: string, bounds: PiBounds, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const root = join(home, sessionsDirName);
  try {
    if (!(await stat(root)).isDirectory()) return { sessions: [], problems };
  } catch (error) {
    if (isNotFound(error)) return { sessions: [], problems };
    return { sessions: [], problems: [{ path: root, kind: 'unreadable', reason: errorMessage(error) }] };
  }
  const walk = await walkJsonl(fs, root, bounds.walkEntries, problems);
  if (walk.exhausted)
    problems.push({
      path: root,
      kind: 'oversized',
      reason: `more than ${bounds.walkEntries} entries under sessions/; the rest were not listed`,
    });
  // One id in two files under one home (a copy): the most recently written wins.
  const byId = new Map<string, DiscoveredSession>();
  for (const path of walk.files) {
    let session: DiscoveredSession | null;
    try {
      session = await describePiFile(path, home, bounds.headerBytes, fs);
    } catch (error) {
      problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
      continue;
    }
    if (session === null) continue;
    const seen = byId.get(session.sessionId);
    if (seen === undefined || (session.files[0]?.mtimeMs ?? 0) > (seen.files[0]?.mtimeMs ?? 0)) byId.set(session.sessionId, session);
  }
  return { sessions: [...byId.values()], problems };
}

/** A Pi session file anywhere on disk: it must open with a session header. */
export async function claimPi(path: string, headerBytes: number): Promise<DiscoveredSession | null> {
  const abs = resolve(path);
  const first = (await statFile(abs)) === null ? null : await readFirstLine(abs, headerBytes);
  const parsed = first === null ? undefined : parseObjectLine(first);
  const header = parsed === undefined ? undefined : headerOf(parsed);
  if (header?.id === undefined) return null;
  // The home is the folder above `sessions/` when the file sits in Pi's layout.
  const cwdDir = dirname(abs);
  const sessionsDir = dirname(cwdDir);
  const home = basename(sessionsDir) === sessionsDirName ? dirname(sessionsDir) : cwdDir;
  return describePiFile(abs, home, headerBytes);
}
