// Finding Intendant sessions: every `logs/<id>/` folder with a spine, children of a nesting
// relationship folded into their parent (so they are listed once, inside it), and the files each
// session is read from (its own and its descendants', so a changed child re-reads the parent).
import { lstatSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { parseObjectLine, str } from '../../json/narrow.js';
import { readFirstLine } from '../../fs/read-lines.js';
import { isNotFound } from '../../fs/errors.js';
import type { DiscoveredSession, Discovery, DiscoveryFs, SessionFile, TreeEntry } from '../types.js';
import { toLogRow } from './log-row.js';
import { metaFile } from './meta.js';
import { nesting, readGraph, sessionFolders, spineFile, type Relationship, type SessionFolder } from './relationships.js';

export const logsDirName = 'logs';

/** A discovered Intendant session carries the relationship edges of its descendants. */
export interface IntendantSession extends DiscoveredSession {
  links: Relationship[];
}

export function linksOf(session: DiscoveredSession): Relationship[] {
  const links = (session as Partial<IntendantSession>).links;
  return Array.isArray(links) ? links : [];
}

/** Size and mtime of a regular file, never through a symlink; null when there is none. */
async function fileFacts(path: string): Promise<SessionFile | null> {
  return fileFactsSync(path);
}

function fileFactsSync(path: string): SessionFile | null {
  try {
    const s = lstatSync(path);
    return s.isFile() ? { path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) } : null;
  } catch {
    return null;
  }
}

/** The spine (as the listing found it, when it was listed) and the meta of a session folder. */
function folderFiles(dir: string, listed: SessionFolder | undefined): SessionFile[] {
  const out: SessionFile[] = [];
  const spine = listed?.spine ?? fileFactsSync(join(dir, spineFile));
  if (spine !== null) out.push(spine);
  const meta = fileFactsSync(join(dir, metaFile));
  if (meta !== null) out.push(meta);
  return out;
}

/** The session plus every descendant, with the edges that reach them (cycle-safe). */
function descendants(id: string, children: Map<string, Relationship[]>): Relationship[] {
  const out: Relationship[] = [];
  const seen = new Set([id]);
  const visit = (parent: string): void => {
    for (const e of children.get(parent) ?? []) {
      if (seen.has(e.child)) continue;
      seen.add(e.child);
      out.push(e);
      visit(e.child);
    }
  };
  visit(id);
  return out;
}

async function describe(
  home: string,
  folder: SessionFolder,
  links: Relationship[],
  logsDir: string,
  listed: ReadonlyMap<string, SessionFolder>,
): Promise<IntendantSession> {
  const files = folderFiles(folder.dir, folder);
  for (const l of links) files.push(...folderFiles(join(logsDir, l.child), listed.get(l.child)));
  return { agent: 'intendant', sessionId: folder.id, home, path: folder.dir, files, links };
}

function byId(folders: readonly SessionFolder[]): Map<string, SessionFolder> {
  return new Map(folders.map((f) => [f.id, f]));
}

export async function discoverHome(home: string, fs?: DiscoveryFs): Promise<Discovery> {
  const logsDir = join(home, logsDirName);
  const folders = await sessionFolders(logsDir, fs);
  const { edges, problems } = await readGraph(folders, fs);
  const { children, hidden } = nesting(
    folders.map((f) => f.id),
    edges,
  );
  const sessions: DiscoveredSession[] = [];
  const listed = byId(folders);
  for (const f of folders) {
    if (hidden.has(f.id)) continue;
    sessions.push(await describe(home, f, descendants(f.id, children), logsDir, listed));
  }
  return { sessions, problems };
}

/** Whether a spine's first line reads as a LogEvent (so another agent's `session.jsonl` is not claimed). */
async function looksLikeSpine(spine: string, dir: string): Promise<boolean> {
  const first = await readFirstLine(spine).catch(() => null);
  if (first === null) return (await fileFacts(join(dir, metaFile))) !== null;
  const obj = parseObjectLine(first);
  return obj !== undefined && toLogRow(obj, 1) !== undefined && str(obj, 'ts') !== undefined;
}

/** Accepts a session folder or its `session.jsonl`. */
export async function claimPath(path: string): Promise<IntendantSession | null> {
  let dir: string;
  try {
    const s = await lstat(path);
    if (s.isDirectory()) dir = path;
    else if (s.isFile() && basename(path) === spineFile) dir = dirname(path);
    else return null;
  } catch {
    return null;
  }
  const spine = join(dir, spineFile);
  if ((await fileFacts(spine)) === null || !(await looksLikeSpine(spine, dir))) return null;
  const parent = dirname(dir);
  const inLogs = basename(parent) === logsDirName;
  const home = inLogs ? dirname(parent) : parent;
  let links: Relationship[] = [];
  let listed = new Map<string, SessionFolder>();
  if (inLogs) {
    const folders = await sessionFolders(parent);
    listed = byId(folders);
    const { edges } = await readGraph(folders);
    links = descendants(
      basename(dir),
      nesting(
        folders.map((f) => f.id),
        edges,
      ).children,
    );
  }
  return describe(home, { id: basename(dir), dir }, links, parent, listed);
}

async function walkFiles(dir: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    // Dirent types are lstat's: symlinks are neither files nor folders here, so never followed.
    if (e.isDirectory()) await walkFiles(p, out);
    else if (e.isFile()) out.push(p);
  }
}

/** Every regular file of the session folder and of its nested children's folders. */
export async function sessionTree(session: DiscoveredSession): Promise<TreeEntry[]> {
  const dirs = [session.path];
  for (const f of session.files) {
    const d = dirname(f.path);
    if (d !== session.path && !d.startsWith(session.path + sep) && !dirs.includes(d)) dirs.push(d);
  }
  const paths: string[] = [];
  for (const d of dirs) await walkFiles(d, paths);
  return paths
    .map((p): TreeEntry => ({ relPath: relative(session.home, p), kind: 'file', path: p }))
    .sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}
