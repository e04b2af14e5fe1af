// Custody for Claude Code: a session's tree (what a keep copies), and the shortcuts of seed 001
// "Locate": where a session's main file lives, found by encoding a known cwd (never by decoding a
// folder name: `/`, `.`, `_` and spaces all become `-`), and its sub-agent sidechains with the
// launching tool_use id from each `.meta.json`.
import { existsSync, readdirSync } from 'node:fs';
import { readdir, lstat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { nameFromBytes, osPath } from '../../fs/byte-path.js';
import { readRegularFile } from '../../fs/read-open.js';
import { isNotFound } from '../../fs/errors.js';
import { asObject, str, type JsonObject } from '../../json/narrow.js';
import type { CustodyHooks, DiscoveredSession, Sidechain, TreeEntry } from '../types.js';
import { agentIdOfTranscript, childPath, jsonlExt, metaExt, projectsDirName } from './layout.js';

/** Claude Code's project folder name for a cwd: every character but an ASCII letter or digit becomes `-`. */
export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** Longer encodings are cut by Claude Code and given a suffix; such folders are matched on the cut prefix. */
const maxEncodedLength = 200;
const maxMetaBytes = 64 * 1024;

async function projectDirs(projects: string): Promise<string[]> {
  try {
    const entries = await readdir(osPath(projects), { withFileTypes: true, encoding: 'buffer' });
    // Links are left out: custody never reads through one. Names are read as bytes (fs/byte-path.ts).
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => nameFromBytes(e.name))
      .sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

async function sessionPaths(home: string, sessionId: string, cwd?: string): Promise<string[]> {
  const projects = join(home, projectsDirName);
  const file = `${sessionId}${jsonlExt}`;
  if (cwd !== undefined) {
    const encoded = encodeCwd(cwd);
    if (encoded.length <= maxEncodedLength) return [join(projects, encoded, file)];
    const cut = encoded.slice(0, maxEncodedLength);
    return (await projectDirs(projects)).filter((d) => d.startsWith(cut)).map((d) => join(projects, d, file));
  }
  return (await projectDirs(projects)).map((d) => join(projects, d, file));
}

async function readMeta(path: string): Promise<JsonObject | undefined> {
  try {
    const st = await lstat(osPath(path));
    if (!st.isFile() || st.size > maxMetaBytes) return undefined;
    return asObject(JSON.parse(await readRegularFile(path)));
  } catch {
    return undefined;
  }
}

async function sidechains(session: DiscoveredSession): Promise<Sidechain[]> {
  const out: Sidechain[] = [];
  for (const f of session.files.slice(1)) {
    const agentId = agentIdOfTranscript(basename(f.path));
    if (agentId === undefined) continue;
    const meta = await readMeta(`${f.path.slice(0, -jsonlExt.length)}${metaExt}`);
    out.push({
      agentId,
      toolUseId: str(meta, 'toolUseId') ?? null,
      agentType: str(meta, 'agentType') ?? null,
      description: str(meta, 'description') ?? null,
      path: f.path,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export const claudeCustody: CustodyHooks = { sessionPaths, sidechains };

/**
 * Every regular file below `dir`, in listing order (symbolic links are not followed); none when it
 * is missing. Synchronous: a keep lists thousands of small session folders, where a thread-pool
 * round trip per folder costs more than the listing.
 */
function filesBelow(dir: string, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(osPath(dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = childPath(dir, e.name);
    if (e.isDirectory()) filesBelow(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/**
 * `relative(home, path)`, by slicing when `path` is plainly inside an absolute, normalised home: the
 * rest has no empty segment, no trailing slash and no segment starting with a dot (so no `.` or `..`;
 * dot-files take the slow way).
 */
function relativeTo(home: string, homeIsPlain: boolean, path: string): string {
  if (homeIsPlain && path.startsWith(home) && path.charAt(home.length) === '/') {
    const rest = path.slice(home.length + 1);
    if (rest !== '' && !rest.startsWith('.') && !rest.includes('/.') && !rest.includes('//') && !rest.endsWith('/')) return rest;
  }
  return relative(home, path);
}

/**
 * A session's custody tree, named relative to the home: the transcript, its subagents, and everything
 * else Claude Code keeps in the session's own folder (`<id>/tool-results/…` and the like), so a keep
 * copies the whole tree.
 */
export async function claudeTree(session: DiscoveredSession): Promise<TreeEntry[]> {
  const paths = session.files.map((f) => f.path);
  const main = paths[0];
  if (main?.endsWith(jsonlExt)) {
    const folder = join(dirname(main), basename(main, jsonlExt));
    // Most sessions have no folder: a cheap existence test spares a thrown ENOENT.
    if (existsSync(osPath(folder))) {
      const listed = new Set(paths);
      for (const p of filesBelow(folder)) if (!listed.has(p)) paths.push(p);
    }
  }
  const homeIsPlain = sep === '/' && resolve(session.home) === session.home;
  return paths.map((p) => ({ relPath: relativeTo(session.home, homeIsPlain, p), kind: 'file' as const, path: p }));
}
