// Finds Copilot CLI sessions: `session-state/<id>/events.jsonl` folders and older loose
// `session-state/<id>.jsonl` files. Cheap: a directory listing and one bounded first line per
// session (the `session.start` event, for the working directory).
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { readFirstLineSync } from '../../fs/read-lines.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import { asObject, parseObjectLine, text } from '../../json/narrow.js';
import type { DiscoveredSession, Discovery, FileProblem, TreeEntry } from '../types.js';
import { isStartLine } from './event.js';
import { eventsFileName, homeOfEvents, sessionIdOf, stateDirName } from './layout.js';

const headBytes = 1 << 20;
/** Files a session folder's custody tree holds at most (checkpoints, plans, artifacts). */
const maxTreeFiles = 2000;

function listDir(dir: string, problems: FileProblem[]) {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

/** Describes one events file, or null when it is gone or does not open with `session.start`. */
export function describeEvents(path: string, home: string): DiscoveredSession | null {
  const file = statFileSync(path);
  if (file === null) return null;
  const first = parseObjectLine(readFirstLineSync(path, headBytes) ?? '');
  // An empty file is a session starting to be written; anything else must open as Copilot CLI's do.
  if (file.size > 0 && first !== undefined && !isStartLine(first)) return null;
  const session: DiscoveredSession = { agent: 'copilot', sessionId: sessionIdOf(path), home, path, files: [file] };
  const cwd = text(asObject(asObject(first?.['data'])?.['context']), 'cwd');
  if (cwd !== undefined) session.cwd = cwd;
  return session;
}

export async function discoverCopilot(home: string): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const sessions: DiscoveredSession[] = [];
  const root = join(home, stateDirName);
  for (const entry of listDir(root, problems)) {
    const path = entry.isDirectory() ? join(root, entry.name, eventsFileName) : join(root, entry.name);
    if (!entry.isDirectory() && !entry.name.endsWith('.jsonl')) continue;
    try {
      const session = describeEvents(path, home);
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
    return describeEvents(abs, homeOfEvents(abs));
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
    for (const e of listDir(dir, [])) {
      if (out.length >= maxTreeFiles) return;
      const p = join(dir, e.name);
      if (e.isDirectory() && depth < 3) walk(p, depth + 1);
      else if (e.isFile() && p !== session.path) out.push({ relPath: relative(session.home, p), kind: 'file', path: p });
    }
  };
  walk(resolve(session.path, '..'), 0);
  return out;
}
