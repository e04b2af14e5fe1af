// Finds Droid sessions: `sessions/-<cwd>/*.jsonl` and older `sessions/*.jsonl`, each opening with
// `session_start`. A sub-agent's own session (its start names a `callingSessionId` found in the same
// home) is not listed: its files go with the session that called it. Cheap: one bounded first line
// per file.
import { join, relative, resolve } from 'node:path';
import { readFirstLineSync } from '../../fs/read-lines.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { asObject, parseObjectLine, str } from '../../json/narrow.js';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile, TreeEntry } from '../types.js';
import { startOf, type DroidStart } from './line.js';
import { homeOfSession, sessionIdOf, sessionsDirName, settingsPathOf } from './layout.js';

const headBytes = 1 << 20;

interface Found {
  path: string;
  file: SessionFile;
  start: DroidStart;
}

function listDir(fs: DiscoveryFs, dir: string, problems: FileProblem[]) {
  try {
    return fs.list(dir).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

/** The header of a session file. */
function readStart(path: string): DroidStart | undefined {
  return startOf(parseObjectLine(readFirstLineSync(path, headBytes) ?? ''));
}

/** `{ start }` remembered for a file (null: it does not open with `session_start`). */
function decodeStart(value: unknown): { start: DroidStart | null } | undefined {
  const o = asObject(value);
  if (o === undefined || !('start' in o)) return undefined;
  if (o['start'] === null) return { start: null };
  const start = asObject(o['start']);
  if (start === undefined) return undefined;
  return {
    start: {
      id: str(start, 'id'),
      title: str(start, 'title'),
      cwd: str(start, 'cwd'),
      callingSessionId: str(start, 'callingSessionId'),
      callingToolUseId: str(start, 'callingToolUseId'),
    },
  };
}

/** A session file's stat and header; null when it is gone or does not open with `session_start`. */
async function probe(path: string, fs: DiscoveryFs = uncachedFs): Promise<Found | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  const { start } = await fs.derive(file, 'droid:start', decodeStart, async () => ({ start: readStart(path) ?? null }));
  return start === null ? null : { path, file, start };
}

function toSession(f: Found, home: string, children: readonly Found[]): DiscoveredSession {
  const files: SessionFile[] = [f.file];
  for (const p of [settingsPathOf(f.path), ...children.flatMap((c) => [c.path, settingsPathOf(c.path)])]) {
    const s = statFileSync(p);
    if (s !== null) files.push(s);
  }
  const session: DiscoveredSession = { agent: 'droid', sessionId: sessionIdOf(f.path), home, path: f.path, files };
  if (f.start.cwd !== undefined) session.cwd = f.start.cwd;
  return session;
}

async function collect(fs: DiscoveryFs, dir: string, out: Found[], problems: FileProblem[]): Promise<void> {
  for (const e of listDir(fs, dir, problems)) {
    if (!e.name.endsWith('.jsonl')) continue;
    const path = join(dir, e.name);
    try {
      const f = await probe(path, fs);
      if (f !== null) out.push(f);
    } catch (error) {
      problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
    }
  }
}

export async function discoverDroid(home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const root = join(home, sessionsDirName);
  const found: Found[] = [];
  await collect(fs, root, found, problems);
  for (const e of listDir(fs, root, problems))
    if (e.kind === 'dir' && e.name.startsWith('-')) await collect(fs, join(root, e.name), found, problems);
  const ids = new Set(found.map((f) => sessionIdOf(f.path)));
  const children = new Map<string, Found[]>();
  for (const f of found) {
    const parent = f.start.callingSessionId;
    if (parent !== undefined && ids.has(parent)) children.set(parent, [...(children.get(parent) ?? []), f]);
  }
  // One id in two places (a legacy file beside its project copy): the most recently written wins.
  const byId = new Map<string, DiscoveredSession>();
  for (const f of found) {
    const parent = f.start.callingSessionId;
    if (parent !== undefined && ids.has(parent)) continue;
    const s = toSession(f, home, children.get(sessionIdOf(f.path)) ?? []);
    const seen = byId.get(s.sessionId);
    if (seen === undefined || (seen.files[0]?.mtimeMs ?? 0) < (s.files[0]?.mtimeMs ?? 0)) byId.set(s.sessionId, s);
  }
  return { sessions: [...byId.values()], problems };
}

/** A session file anywhere that opens with Droid's `session_start`; a sub-agent's is its caller's. */
export async function claimDroid(path: string): Promise<DiscoveredSession | null> {
  const abs = resolve(path);
  if (!abs.endsWith('.jsonl')) return null;
  try {
    const f = await probe(abs);
    if (f === null) return null;
    const home = homeOfSession(abs);
    const found = await discoverDroid(home);
    const own = found.sessions.find((s) => s.files.some((x) => x.path === abs));
    return own ?? toSession(f, home, []);
  } catch {
    return null;
  }
}

export async function droidTree(session: DiscoveredSession): Promise<TreeEntry[]> {
  return session.files.map((f) => ({ relPath: relative(session.home, f.path), kind: 'file' as const, path: f.path }));
}
