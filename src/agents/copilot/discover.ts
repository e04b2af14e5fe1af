// Finds Copilot CLI sessions: `session-state/<id>/events.jsonl` folders and older loose
// `session-state/<id>.jsonl` files. Cheap: a directory listing and one bounded first line per
// session (the `session.start` event, for the working directory), both remembered by the scan's
// discovery cache while the folder or file is unchanged.
import { stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { readFirstLineSync } from '../../fs/read-lines.js';
import { statFileSync } from '../../fs/stat.js';
import { type DirEntry, type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { asObject, parseObjectLine, text } from '../../json/narrow.js';
import type { DiscoveredSession, Discovery, FileProblem, TreeEntry } from '../types.js';
import { isStartLine } from './event.js';
import { eventsFileName, homeOfEvents, sessionIdOf, stateDirName } from './layout.js';

const headBytes = 1 << 20;
/** Files a session folder's custody tree holds at most (checkpoints, plans, artifacts). */
const maxTreeFiles = 2000;

/** What an events file's first line says: whether it is something other than `session.start`, and its working directory. */
interface Head {
  foreign: boolean;
  cwd: string | null;
}

/** A remembered `Head`; undefined for anything else. */
function decodeHead(value: unknown): Head | undefined {
  if (typeof value !== 'object' || value === null || !('foreign' in value) || !('cwd' in value)) return undefined;
  const { foreign, cwd } = value;
  return typeof foreign === 'boolean' && (cwd === null || typeof cwd === 'string') ? { foreign, cwd } : undefined;
}

function readHead(path: string): Head {
  const first = parseObjectLine(readFirstLineSync(path, headBytes) ?? '');
  return {
    foreign: first !== undefined && !isStartLine(first),
    cwd: text(asObject(asObject(first?.['data'])?.['context']), 'cwd') ?? null,
  };
}

/** A folder's entries through `fs`, sorted by name; a missing folder is empty, an unreadable one a problem. */
function listEntries(fs: DiscoveryFs, dir: string, problems: FileProblem[]): DirEntry[] {
  try {
    return fs.list(dir).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

/** Describes one events file, or null when it is gone or does not open with `session.start`. */
export async function describeEvents(path: string, home: string, fs: DiscoveryFs = uncachedFs): Promise<DiscoveredSession | null> {
  const file = statFileSync(path);
  if (file === null) return null;
  const head = await fs.derive(file, 'copilot:head', decodeHead, async () => readHead(path));
  // An empty file is a session starting to be written; anything else must open as Copilot CLI's do.
  if (file.size > 0 && head.foreign) return null;
  const session: DiscoveredSession = { agent: 'copilot', sessionId: sessionIdOf(path), home, path, files: [file] };
  if (head.cwd !== null) session.cwd = head.cwd;
  return session;
}

export async function discoverCopilot(home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  const root = join(home, stateDirName);
  for (const entry of listEntries(fs, root, problems)) {
    const dir = entry.kind === 'dir';
    const path = dir ? join(root, entry.name, eventsFileName) : join(root, entry.name);
    if (!dir && !entry.name.endsWith('.jsonl')) continue;
    try {
      const session = await describeEvents(path, home, fs);
      if (session !== null) sessions.push(session);
    } catch (error) {
      problems.push({ path, kind: 'unreadable', reason: errorMessage(error) });
    }
  }
  return { sessions, problems };
}

/** An events file (or a session folder holding one) anywhere on disk that opens with `session.start`. */
export async function claimCopilot(path: string): Promise<DiscoveredSession | null> {
  let abs = resolve(path);
  try {
    if ((await stat(abs)).isDirectory()) abs = join(abs, eventsFileName);
    if (!abs.endsWith('.jsonl') || statFileSync(abs) === null) return null;
    if (!isStartLine(parseObjectLine(readFirstLineSync(abs, headBytes) ?? ''))) return null;
    return await describeEvents(abs, homeOfEvents(abs));
  } catch {
    return null;
  }
}

/** The session's files: a loose log alone, or the whole session folder (events first). */
export async function copilotTree(session: DiscoveredSession): Promise<TreeEntry[]> {
  const main: TreeEntry = { relPath: relative(session.home, session.path), kind: 'file', path: session.path };
  if (basename(session.path) !== eventsFileName) return [main];
  const out: TreeEntry[] = [main];
  const walk = (dir: string, depth: number): void => {
    for (const e of listEntries(uncachedFs, dir, [])) {
      if (out.length >= maxTreeFiles) return;
      const p = join(dir, e.name);
      if (e.kind === 'dir' && depth < 3) walk(p, depth + 1);
      else if (e.kind === 'file' && p !== session.path) out.push({ relPath: relative(session.home, p), kind: 'file', path: p });
    }
  };
  walk(resolve(session.path, '..'), 0);
  return out;
}
