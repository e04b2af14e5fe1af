// Lists the tasks under one home (`<home>/tasks/<id>/`): a few stats per task, and for Roo Code's
// `history_item.json` one small read (remembered by the scan's discovery cache while the file is
// unchanged), so a subtask is listed inside its parent, not beside it.
import { stat } from 'node:fs/promises';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { basename, dirname, join } from 'node:path';
import { asObject, str } from '../../json/narrow.js';
import { errorMessage } from '../../fs/errors.js';
import type { DiscoveredSession, Discovery, FileProblem, SessionFile } from '../types.js';
import { homeOfTask, listTaskIds, readDocument, taskFileNames, taskFiles } from './task-files.js';
import type { ClineAgentId, ClineVariant } from './variant.js';

interface TaskEntry {
  id: string;
  dir: string;
  files: DiscoveredSession['files'];
  parentId?: string;
  workspace?: string;
}

interface HistoryItem {
  parentId?: string;
  workspace?: string;
}

/** A remembered `HistoryItem`; undefined for anything else. */
function decodeItem(value: unknown): HistoryItem | undefined {
  const o = asObject(value);
  if (o === undefined) return undefined;
  const { parentId, workspace } = o;
  if ((parentId !== undefined && typeof parentId !== 'string') || (workspace !== undefined && typeof workspace !== 'string'))
    return undefined;
  return { ...(parentId !== undefined ? { parentId } : {}), ...(workspace !== undefined ? { workspace } : {}) };
}

/** Roo Code's own history entry for a task: its parent and working directory (absent before 3.5x). */
function readItem(path: string): HistoryItem {
  const read = readDocument(path);
  if (!('value' in read)) return {};
  const item = asObject(read.value);
  const parentId = str(item, 'parentTaskId');
  const workspace = str(item, 'workspace');
  return { ...(parentId !== undefined && parentId !== '' ? { parentId } : {}), ...(workspace ? { workspace } : {}) };
}

async function readTask(dir: string, id: string, fs: DiscoveryFs = uncachedFs): Promise<TaskEntry | null> {
  const files = taskFiles(dir);
  if (files.length === 0) return null;
  const item: SessionFile | undefined = files.find((f) => f.path.endsWith(taskFileNames.historyItem));
  const history = item === undefined ? {} : await fs.derive(item, 'roo:history-item', decodeItem, async () => readItem(item.path));
  return { id, dir, files, ...history };
}

/** The root a task is listed under: its farthest ancestor present in the home (cycles stop where they repeat). */
function rootOf(entry: TaskEntry, byId: Map<string, TaskEntry>): TaskEntry {
  const seen = new Set<string>([entry.id]);
  let at = entry;
  for (let parent = at.parentId; parent !== undefined; parent = at.parentId) {
    const up = byId.get(parent);
    if (up === undefined || seen.has(up.id)) break;
    seen.add(up.id);
    at = up;
  }
  return at;
}

function session(agent: ClineAgentId, home: string, root: TaskEntry, nested: TaskEntry[]): DiscoveredSession {
  const s: DiscoveredSession = {
    agent,
    sessionId: root.id,
    home,
    path: root.dir,
    files: [...root.files, ...nested.flatMap((n) => n.files)],
  };
  if (root.workspace !== undefined) s.cwd = root.workspace;
  return s;
}

export async function discoverTasks(variant: ClineVariant, home: string, fs: DiscoveryFs = uncachedFs): Promise<Discovery> {
  const problems: FileProblem[] = [];
  const byId = new Map<string, TaskEntry>();
  for (const id of listTaskIds(home, problems, fs)) {
    try {
      const entry = await readTask(join(home, 'tasks', id), id, fs);
      if (entry !== null) byId.set(id, entry);
    } catch (error) {
      // A link loop or a FIFO named like a task file is that task's problem; the others are listed.
      problems.push({ path: join(home, 'tasks', id), kind: 'unreadable', reason: errorMessage(error) });
    }
  }
  const nested = new Map<string, TaskEntry[]>();
  for (const entry of byId.values()) {
    const root = rootOf(entry, byId);
    if (root !== entry) nested.set(root.id, [...(nested.get(root.id) ?? []), entry]);
  }
  const sessions: DiscoveredSession[] = [];
  for (const entry of byId.values()) {
    if (rootOf(entry, byId) !== entry) continue;
    sessions.push(session(variant.id, home, entry, nested.get(entry.id) ?? []));
  }
  return { sessions, problems };
}

/** Which agent wrote a task folder: by the storage it sits in, else Roo Code's own `history_item.json`. */
export function ownerOf(taskDir: string): ClineAgentId {
  const p = taskDir.replaceAll('\\', '/').toLowerCase();
  if (p.includes('/saoudrizwan.claude-dev/') || p.includes('/.cline/data/')) return 'cline';
  if (p.includes('/rooveterinaryinc.roo-cline/') || p.includes('/.vscode-mock/global-storage/')) return 'roo_code';
  return taskFiles(taskDir).some((f) => f.path.endsWith(taskFileNames.historyItem)) ? 'roo_code' : 'cline';
}

const fileNames = new Set<string>(Object.values(taskFileNames));

/** A task folder, or one of its documents, given on the command line. */
export async function claimTask(variant: ClineVariant, path: string): Promise<DiscoveredSession | null> {
  let dir = path;
  try {
    const s = await stat(path);
    if (s.isFile()) {
      if (!fileNames.has(basename(path))) return null;
      dir = dirname(path);
    } else if (!s.isDirectory()) return null;
    if (taskFiles(dir).length === 0 || ownerOf(dir) !== variant.id) return null;
  } catch {
    return null;
  }
  const home = homeOfTask(dir);
  if (home !== null) {
    const found = (await discoverTasks(variant, home)).sessions.find((s) => s.path === dir);
    if (found !== undefined) return found;
  }
  const entry = await readTask(dir, basename(dir));
  return entry === null ? null : session(variant.id, home ?? dirname(dir), entry, []);
}
