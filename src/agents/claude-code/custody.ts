// Custody shortcuts for Claude Code (seed 001 "Locate"): where a session's main file lives, found by
// encoding a known cwd (never by decoding a folder name: `/`, `.`, `_` and spaces all become `-`), and
// its sub-agent sidechains with the launching tool_use id from each `.meta.json`.
import { readdir, readFile, lstat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isNotFound } from '../../fs/stat.js';
import { asObject, str, type JsonObject } from '../../json/narrow.js';
import type { CustodyHooks, DiscoveredSession, Sidechain } from '../types.js';
import { agentIdOfTranscript, jsonlExt, metaExt, projectsDirName } from './layout.js';

/** Claude Code's project folder name for a cwd: every character but an ASCII letter or digit becomes `-`. */
export function encodeCwd(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** Longer encodings are cut by Claude Code and given a suffix; such folders are matched on the cut prefix. */
const maxEncodedLength = 200;
const maxMetaBytes = 64 * 1024;

async function projectDirs(projects: string): Promise<string[]> {
  try {
    const entries = await readdir(projects, { withFileTypes: true });
    // Links are left out: custody never reads through one.
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
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
    const st = await lstat(path);
    if (!st.isFile() || st.size > maxMetaBytes) return undefined;
    return asObject(JSON.parse(await readFile(path, 'utf8')));
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
    out.push({ agentId, toolUseId: str(meta, 'toolUseId') ?? null, agentType: str(meta, 'agentType') ?? null, description: str(meta, 'description') ?? null, path: f.path });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export const claudeCustody: CustodyHooks = { sessionPaths, sidechains };
