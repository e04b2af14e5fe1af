// Finds Kimi Code sessions: the union of the session index and a bounded walk of `sessions/`,
// each session a folder with `agents/main/wire.jsonl`. Cheap: paths, sizes and mtimes only, the
// folders listed through the scan's discovery cache.
import { stat } from 'node:fs/promises';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import type { KimiBounds } from './bounds.js';
import { statFileSync, subdirsSync } from './file-stat.js';
import {
  agentsDirName,
  homeOfSessionDir,
  indexFileName,
  mainAgentId,
  orderAgentIds,
  sessionDirPattern,
  sessionsDirName,
  statePath,
  wireFileName,
  wirePath,
} from './layout.js';
import { readSessionIndex } from './session-index.js';

/** The agent ids with a folder under `agents/`, main first. */
export async function agentDirs(sessionDir: string): Promise<string[]> {
  return agentDirsSync(sessionDir);
}

export function agentDirsSync(sessionDir: string, fs: DiscoveryFs = uncachedFs): string[] {
  return orderAgentIds(subdirsSync(join(sessionDir, agentsDirName), fs));
}

function unreadable(path: string, error: unknown): FileProblem {
  return { path, kind: 'unreadable', reason: errorMessage(error) };
}

/** A file's facts; a file that cannot be read (a FIFO, a link loop) is reported and counts as absent. */
function fileOrProblem(path: string, problems: FileProblem[] | undefined): SessionFile | null {
  try {
    return statFileSync(path);
  } catch (error) {
    if (problems === undefined) throw error;
    problems.push(unreadable(path, error));
    return null;
  }
}

/**
 * Describes a session folder, or null when it has no main wire. With `problems`, a file or folder
 * that cannot be read is reported there and the rest of the session kept; without, it throws.
 * `seen`: the main wire as the walk that found the folder stat'ed it (not stat'ed again).
 */
export async function describeSessionDir(
  sessionDir: string,
  home: string,
  cwd?: string,
  problems?: FileProblem[],
  fs: DiscoveryFs = uncachedFs,
  seen?: SessionFile,
): Promise<DiscoveredSession | null> {
  const main = seen ?? fileOrProblem(wirePath(sessionDir, mainAgentId), problems);
  if (main === null) return null;
  const files: SessionFile[] = [main];
  // A state.json that cannot be read is reported by the parse, which reads it; here it is left out.
  const state = fileOrProblem(statePath(sessionDir), problems === undefined ? undefined : []);
  if (state !== null) files.push(state);
  let agents: string[] = [];
  try {
    agents = agentDirsSync(sessionDir, fs);
  } catch (error) {
    if (problems === undefined) throw error;
    problems.push(unreadable(join(sessionDir, agentsDirName), error));
  }
  for (const id of agents) {
    if (id === mainAgentId) continue;
    const wire = fileOrProblem(wirePath(sessionDir, id), problems);
    if (wire !== null) files.push(wire);
  }
  const session: DiscoveredSession = { agent: 'kimi', sessionId: basename(sessionDir), home, path: sessionDir, files };
  if (cwd !== undefined) session.cwd = cwd;
  return session;
}

/**
 * Session folders under `sessions/` (depth ≤ 3), visiting at most `budget` directory entries. A
 * folder that cannot be listed is reported and the walk goes on.
 */
async function walkSessions(
  fs: DiscoveryFs,
  sessionsRoot: string,
  budget: number,
  problems: FileProblem[],
): Promise<{ dirs: string[]; mains: Map<string, SessionFile>; exhausted: boolean }> {
  const dirs: string[] = [];
  const mains = new Map<string, SessionFile>();
  let visited = 0;
  let level = [sessionsRoot];
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let names: string[];
      try {
        names = subdirsSync(dir, fs);
      } catch (error) {
        problems.push(unreadable(dir, error));
        continue;
      }
      for (const name of names) {
        if (++visited > budget) return { dirs, mains, exhausted: true };
        const path = join(dir, name);
        let isSession = false;
        if (sessionDirPattern.test(name)) {
          try {
            const main = statFileSync(wirePath(path, mainAgentId));
            if (main !== null) mains.set(resolve(path), main);
            isSession = main !== null;
          } catch {
            // A main wire that cannot be read is reported when the folder is described.
            isSession = true;
          }
        }
        if (isSession) dirs.push(path);
        else next.push(path);
      }
    }
    level = next;
  }
  return { dirs, mains, exhausted: false };
}

export async function discoverKimi(home: string, bounds: KimiBounds, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessionsRoot = join(home, sessionsDirName);
  try {
    if (!(await stat(sessionsRoot)).isDirectory()) return { sessions: [], problems };
  } catch (error) {
    if (isNotFound(error)) return { sessions: [], problems };
    return { sessions: [], problems: [unreadable(sessionsRoot, error)] };
  }
  const index = await readSessionIndex(join(home, indexFileName), sessionsRoot, bounds.indexBytes, bounds.indexRecordBytes);
  if (index.problem !== null) problems.push(index.problem);
  const walk = await walkSessions(fs, sessionsRoot, bounds.walkEntries, problems);
  if (walk.exhausted)
    problems.push({
      path: sessionsRoot,
      kind: 'oversized',
      reason: `more than ${bounds.walkEntries} folders under sessions/; the rest were not listed`,
    });

  const cwdOf = new Map<string, string | undefined>();
  for (const e of index.entries) cwdOf.set(e.sessionDir, e.workDir);
  const candidates = [...new Set([...walk.dirs.map((d) => resolve(d)), ...index.entries.map((e) => e.sessionDir)])];
  // One session id twice under one home (a copied folder): the most recently written wins.
  const byId = new Map<string, DiscoveredSession>();
  for (const dir of candidates) {
    const session = await describeSessionDir(dir, home, cwdOf.get(dir), problems, fs, walk.mains.get(dir));
    if (session === null) continue;
    const seen = byId.get(session.sessionId);
    if (seen === undefined || (session.files[0]?.mtimeMs ?? 0) > (seen.files[0]?.mtimeMs ?? 0)) byId.set(session.sessionId, session);
  }
  const sessions = [...byId.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { sessions, problems };
}

/** A session folder, its state.json, or one of its wires, wherever it lies. */
export async function claimKimi(path: string, bounds: KimiBounds): Promise<DiscoveredSession | null> {
  const abs = resolve(path);
  let dir = abs;
  try {
    if (!(await stat(abs)).isDirectory()) {
      if (basename(abs) === wireFileName && basename(dirname(dirname(abs))) === agentsDirName) dir = dirname(dirname(dirname(abs)));
      else if (basename(abs) === 'state.json') dir = dirname(abs);
      else return null;
    }
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  const home = homeOfSessionDir(dir);
  // The working directory as discovery learns it (from the home's index), so a claimed session reads the same.
  const index = await readSessionIndex(join(home, indexFileName), join(home, sessionsDirName), bounds.indexBytes, bounds.indexRecordBytes);
  return describeSessionDir(dir, home, index.entries.find((e) => e.sessionDir === dir)?.workDir);
}
