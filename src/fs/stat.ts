// Cheap file facts for discovery: size and mtime, links on a path, what is a regular file.
import { lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { SessionFile } from '../agents/types.js';
import { AgentlogError } from '../errors.js';
import { notRegularFile } from './read-open.js';
import { osPath } from './byte-path.js';
import { isNotFound } from './errors.js';

/**
 * A missing file is not there; a link to a missing file is there, and broken: named like a session,
 * it is that entry's problem to report, never a session silently gone.
 */
function danglingLink(path: string): AgentlogError<'DanglingLink'> | null {
  try {
    const at = osPath(path);
    if (!lstatSync(at).isSymbolicLink()) return null;
    return new AgentlogError('DanglingLink', 'failed', `${path} is a link to ${readlinkSync(at)}, which does not exist: it is not read`);
  } catch {
    return null;
  }
}

/**
 * The file's size and mtime, or null when it does not exist or is a folder. Throws for an entry that
 * cannot be read as a file: a link loop or a dangling link (`DanglingLink`), no permission, or a FIFO,
 * socket or device (`NotRegularFile`), so discovery reports it as unreadable instead of taking it for
 * a missing file.
 */
export async function statFile(path: string): Promise<SessionFile | null> {
  try {
    const s = await stat(osPath(path));
    if (s.isDirectory()) return null;
    if (!s.isFile()) throw notRegularFile(path, s);
    return { path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  } catch (error) {
    if (isNotFound(error)) return notFound(path);
    throw error;
  }
}

function notFound(path: string): null {
  const dangling = danglingLink(path);
  if (dangling !== null) throw dangling;
  return null;
}

/**
 * The first link on the way from `root` (itself not checked) down to `path`, or null when every
 * folder and the file itself are what they say. `path` must lie inside `root`.
 */
export function linkOnPath(root: string, path: string): string | null {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  let at = root;
  for (const part of rel.split(sep)) {
    at = join(at, part);
    if (lstatSync(osPath(at), { throwIfNoEntry: false })?.isSymbolicLink() === true) return at;
  }
  return null;
}

/**
 * The stat each file `statFileSync` answered was made from, while that answer is held: discovery's
 * cache checks a fact about the file against it (`DiscoveryFs.derive`) instead of a second stat
 * (~2,600 of an unchanged scan's ~24,000 were such repeats on the bench home).
 */
const madeFrom = new WeakMap<SessionFile, Stats>();

/** The stat `file` was made from, when `statFileSync` made it. */
export function statsOf(file: SessionFile): Stats | undefined {
  return madeFrom.get(file);
}

/**
 * The facts of a regular file from a stat its caller already made (a reader's own lstat that found
 * one), remembered with that stat as `statFileSync`'s answers are, so no one stats it again.
 */
export function fileOfStats(path: string, s: Stats): SessionFile {
  const file = { path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  madeFrom.set(file, s);
  return file;
}

/** `statFile` without the thread-pool round trip. */
export function statFileSync(path: string): SessionFile | null {
  try {
    const s = statSync(osPath(path), { throwIfNoEntry: false });
    if (s === undefined) return notFound(path);
    if (s.isDirectory()) return null;
    if (!s.isFile()) throw notRegularFile(path, s);
    return fileOfStats(path, s);
  } catch (error) {
    if (isNotFound(error)) return notFound(path);
    throw error;
  }
}

/** True when `path` names a regular file (through links); false when it is missing, a folder or unreadable. */
export async function isRegularFile(path: string): Promise<boolean> {
  try {
    return (await stat(osPath(path))).isFile();
  } catch {
    return false;
  }
}
