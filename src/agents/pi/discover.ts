// Finds Pi sessions: `*.jsonl` files under `sessions/` (depth ≤ 3) whose first line is a session
// header, or whose name is `<timestamp>_<id>.jsonl` when the header is unreadable. Cheap: one
// bounded first line per file.
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { readFirstLine, readFirstLineSync } from '../../fs/read-lines.js';
import { statFile, statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { parseObjectLine } from '../../json/narrow.js';
import type { DiscoveredSession, Discovery, FileProblem } from '../types.js';
import type { PiBounds } from './bounds.js';
import { headerOf } from './entry.js';
import { idFromFileName, sessionIdPattern, sessionsDirName } from './layout.js';

/** Describes one file as a Pi session, or null when it is not one. */
export async function describePiFile(path: string, home: string, headerBytes: number): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null || file.size === 0 || !path.endsWith('.jsonl')) return null;
  const first = readFirstLineSync(path, headerBytes);
  const parsed = first === null ? undefined : parseObjectLine(first);
  const header = parsed === undefined ? undefined : headerOf(parsed);
  // A first line that parses as something other than a header: not a Pi session file.
  if (parsed !== undefined && header === undefined) return null;
  const headerId = header?.id !== undefined && sessionIdPattern.test(header.id) ? header.id : undefined;
  const sessionId = headerId ?? idFromFileName(path);
  if (sessionId === undefined) return null;
  const session: DiscoveredSession = { agent: 'pi', sessionId, home, path, files: [file] };
  if (header?.cwd !== undefined) session.cwd = header.cwd;
  return session;
}

/**
 * `*.jsonl` files under `root` (depth ≤ 3). A folder that cannot be listed, or a FIFO, socket or
 * device named like a session file, is that entry's problem: reported, and the walk goes on.
 */
async function walkJsonl(root: string, budget: number, problems: FileProblem[]): Promise<{ files: string[]; exhausted: boolean }> {
  const files: string[] = [];
  let visited = 0;
  let level = [root];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
        continue;
      }
      for (const e of entries) {
        if (++visited > budget) return { files, exhausted: true };
        const path = join(dir, e.name);
        if (e.isDirectory()) next.push(path);
        else if (!e.name.endsWith('.jsonl')) continue;
        else if (e.isFile()) files.push(path);
        else if (e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice())
          problems.push({ path, kind: 'unreadable', reason: `${path} is not a regular file: it is not read` });
      }
    }
    level = next;
  }
  return { files: files.sort(), exhausted: false };
}

export async function discoverPi(home: string, bounds: PiBounds): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const root = join(home, sessionsDirName);
  try {
    if (!(await stat(root)).isDirectory()) return { sessions: [], problems };
  } catch (error) {
    if (isNotFound(error)) return { sessions: [], problems };
    return { sessions: [], problems: [{ path: root, kind: 'unreadable', reason: errorMessage(error) }] };
  }
  const walk = await walkJsonl(root, bounds.walkEntries, problems);
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
      session = await describePiFile(path, home, bounds.headerBytes);
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
