// Finds Claude Code sessions cheaply: file names, sizes and mtimes, plus a peek at the first line of
// loose `agent-*.jsonl` files to learn which session they belong to. Never a full parse.
//
// A session is `projects/<dir>/<id>.jsonl`; its id is the file name (a file not named by a uuid, say
// one copied elsewhere, is named by the `sessionId` its lines carry). Subagent transcripts are part of
// their session, never sessions of their own: `<id>/subagents/agent-*.jsonl` + `.meta.json` (newer
// builds), and loose `agent-*.jsonl` beside the main file (older builds), which belong to the session
// their lines' `sessionId` names. Such files whose session has no main transcript anywhere in the home
// (the corpus `agent-test-hash-123.jsonl` names a session that is not there) are listed once, as that
// session, since they are all that is left of it.
//
// The folder listings and stats are synchronous: a home holds thousands of small metadata calls, and
// each one sent to the thread pool costs more in scheduling (worse on a busy machine) than in the
// kernel; a keep of an unchanged home is mostly this walk.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { holdsEscape, nameFromBytes, osPath } from '../../fs/byte-path.js';
import { type DirEntry, type DiscoveryFs, kindOf, uncachedFs } from '../../fs/dir-listing.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import {
  agentIdOfMeta,
  agentIdOfTranscript,
  childPath,
  isUuid,
  jsonlExt,
  projectsDirName,
  readHead,
  sessionIdInHead,
  subagentsDirName,
} from './layout.js';

/** A session before its files are stat'ed: the main transcript and the extra files that belong to it. */
export interface SessionDraft {
  sessionId: string;
  main: string;
  /** Subagent transcripts and `.meta.json` files, in name order. */
  extra: string[];
}

export interface DirScan {
  /** Sessions whose main transcript is in this folder. */
  mains: SessionDraft[];
  /**
   * Subagent files whose session has no main transcript in this folder, keyed by the session id they
   * name: loose `agent-*.jsonl` (older builds) and `<session>/subagents/` folders of a missing main.
   */
  strays: Map<string, string[]>;
  /** Entries of the folder that could not be read (a link loop, a FIFO, a folder without permission). */
  problems: FileProblem[];
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * A folder's entries by name. A path holding an escaped byte (under a project folder whose name is
 * not UTF-8) is listed from the disk through its bytes: the cache knows string paths only.
 */
function listDir(dir: string, fs: DiscoveryFs): DirEntry[] {
  const entries = holdsEscape(dir)
    ? readdirSync(osPath(dir), { withFileTypes: true }).map((e) => ({ name: e.name, kind: kindOf(e) }))
    : fs.list(dir);
  return [...entries].sort(byName);
}

/**
 * The project folders (and links to them), named from their bytes: a folder name that is not UTF-8
 * (made by hand, or by an older build on another system) stays a path that opens (fs/byte-path.ts).
 */
function listProjects(root: string): { name: string; link: boolean }[] {
  const out: { name: string; link: boolean }[] = [];
  for (const d of readdirSync(osPath(root), { withFileTypes: true, encoding: 'buffer' })) {
    if (d.isDirectory() || d.isSymbolicLink()) out.push({ name: nameFromBytes(d.name), link: d.isSymbolicLink() });
  }
  return out.sort(byName);
}

/**
 * The transcripts and meta files of one `<session>/subagents/` folder; none when it is missing. A
 * folder that cannot be listed is reported in `problems` (when given) and holds none, else it throws.
 */
export async function subagentFiles(dir: string, problems?: FileProblem[], fs: DiscoveryFs = uncachedFs): Promise<string[]> {
  let entries: DirEntry[];
  try {
    entries = listDir(dir, fs);
  } catch (error) {
    if (isNotFound(error)) return [];
    if (problems === undefined) throw error;
    problems.push(unreadable(dir, error));
    return [];
  }
  const files: string[] = [];
  for (const e of entries) {
    if (e.kind === 'dir') continue;
    if (agentIdOfTranscript(e.name) !== undefined || agentIdOfMeta(e.name) !== undefined) files.push(childPath(dir, e.name));
  }
  return files;
}

function unreadable(path: string, error: unknown): FileProblem {
  return { path, kind: 'unreadable', reason: errorMessage(error) };
}

const asId = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The session id a file's first line names; remembered by `fs` while the file is unchanged. */
async function headSessionId(path: string, fs: DiscoveryFs): Promise<string | undefined> {
  const read = async (): Promise<string | undefined> => {
    try {
      return sessionIdInHead(await readHead(path));
    } catch {
      return undefined;
    }
  };
  return holdsEscape(path) ? read() : fs.derive(path, 'claude-head-session', asId, read);
}

function addStray(strays: Map<string, string[]>, key: string, files: string[]): void {
  const list = strays.get(key);
  if (list === undefined) strays.set(key, [...files]);
  else list.push(...files);
}

/**
 * Reads one project folder. `onlyMain` limits the mains to that one file (used by `claim`, which wants
 * a single session); subagent folders without a main are then not looked at.
 */
export async function scanProjectDir(dir: string, onlyMain?: string, fs: DiscoveryFs = uncachedFs): Promise<DirScan> {
  const entries = listDir(dir, fs);
  const subdirs = new Set<string>();
  const mainNames: string[] = [];
  const agentNames: string[] = [];
  for (const e of entries) {
    if (e.kind === 'dir') subdirs.add(e.name);
    else if (e.name.endsWith(jsonlExt)) (agentIdOfTranscript(e.name) !== undefined ? agentNames : mainNames).push(e.name);
  }
  const byId = new Map<string, SessionDraft>();
  const mains: SessionDraft[] = [];
  const problems: FileProblem[] = [];
  for (const name of mainNames) {
    const path = childPath(dir, name);
    if (onlyMain !== undefined && path !== onlyMain) continue;
    const stem = name.slice(0, -jsonlExt.length);
    // The file name is the session id; a renamed or hand-made file is named by its lines instead.
    let sessionId = isUuid(stem) ? stem : ((await headSessionId(path, fs)) ?? stem);
    if (byId.has(sessionId)) sessionId = stem;
    const draft: SessionDraft = { sessionId, main: path, extra: [] };
    if (subdirs.has(stem)) draft.extra.push(...(await subagentFiles(join(dir, stem, subagentsDirName), problems, fs)));
    byId.set(sessionId, draft);
    mains.push(draft);
  }
  const strays = new Map<string, string[]>();
  for (const name of agentNames) {
    const path = childPath(dir, name);
    const sid = await headSessionId(path, fs);
    const owner = sid === undefined ? undefined : byId.get(sid);
    if (owner !== undefined) owner.extra.push(path);
    else if (onlyMain === undefined) addStray(strays, sid ?? name.slice(0, -jsonlExt.length), [path]);
  }
  if (onlyMain === undefined) {
    const mainStems = new Set(mainNames.map((n) => n.slice(0, -jsonlExt.length)));
    for (const sub of subdirs) {
      if (mainStems.has(sub)) continue;
      const files = await subagentFiles(join(dir, sub, subagentsDirName), problems, fs);
      if (files.length > 0) addStray(strays, sub, files);
    }
  }
  return { mains, strays, problems };
}

/**
 * Sidechain files no main transcript claims become a session of their own, named by the session id
 * their lines carry (older builds wrote it into every `agent-*.jsonl`): the surviving part of a session
 * whose main file is gone. The first transcript is read as the main one.
 */
export function orphanDraft(sessionId: string, files: string[]): SessionDraft | null {
  const sorted = [...files].sort();
  const main = sorted.find((f) => f.endsWith(jsonlExt));
  if (main === undefined) return null;
  return { sessionId, main, extra: sorted.filter((f) => f !== main) };
}

/**
 * Stats a draft's files into a discovered session; null when its main file is gone or cannot be
 * read. A file that cannot be read (a link loop, a FIFO) is that file's problem: it goes into
 * `problems` and the rest of the session is kept.
 */
export async function toSession(draft: SessionDraft, home: string, problems: FileProblem[] = []): Promise<DiscoveredSession | null> {
  const files: SessionFile[] = [];
  for (const path of [draft.main, ...draft.extra]) {
    let file: SessionFile | null;
    try {
      file = statFileSync(path);
    } catch (error) {
      problems.push(unreadable(path, error));
      if (path === draft.main) return null;
      continue;
    }
    if (file === null && path === draft.main) return null;
    if (file !== null) files.push(file);
  }
  return { agent: 'claude_code', sessionId: draft.sessionId, home, path: draft.main, files };
}

/**
 * Lists every session under `<home>/projects`. A missing home is an empty discovery. The projects
 * folder itself is always listed as bytes (one readdir); the folders under it go through `fs`.
 */
export async function discoverClaude(home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const root = join(home, projectsDirName);
  const problems: FileProblem[] = [];
  let dirs: { name: string; link: boolean }[];
  try {
    dirs = listProjects(root);
  } catch (error) {
    if (isNotFound(error)) return { sessions: [], problems };
    return { sessions: [], problems: [unreadable(root, error)] };
  }
  const drafts: SessionDraft[] = [];
  const byId = new Map<string, SessionDraft>();
  const strays = new Map<string, string[]>();
  for (const d of dirs) {
    const dir = childPath(root, d.name);
    let scanned: DirScan;
    try {
      scanned = await scanProjectDir(dir, undefined, fs);
    } catch (error) {
      if (d.link && isNotFound(error)) continue;
      problems.push(unreadable(dir, error));
      continue;
    }
    for (const m of scanned.mains) {
      drafts.push(m);
      if (!byId.has(m.sessionId)) byId.set(m.sessionId, m);
    }
    for (const [key, files] of scanned.strays) addStray(strays, key, files);
    problems.push(...scanned.problems);
  }
  // A relocated worktree can leave a session's subagents under another project folder: join by id
  // across the whole home before calling anything an orphan.
  for (const [key, files] of strays) {
    const owner = byId.get(key);
    if (owner !== undefined) owner.extra.push(...files.sort());
    else {
      const orphan = orphanDraft(key, files);
      if (orphan !== null) drafts.push(orphan);
    }
  }
  const sessions: DiscoveredSession[] = [];
  for (const draft of drafts) {
    const s = await toSession(draft, home, problems);
    if (s !== null) sessions.push(s);
  }
  return { sessions, problems };
}
