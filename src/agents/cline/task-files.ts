// A task folder (`<home>/tasks/<id>/`) and its JSON documents, read whole and bounded: the
// extensions rewrite each document whole on every change (safeWriteJson / fs.writeFile).
import { closeSync, readdirSync } from 'node:fs';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { basename, dirname, join } from 'node:path';
import { type OpenedFile, openRegularSync, readOpenedBytesSync } from '../../fs/read-open.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { FileProblem, SessionFile } from '../types.js';

export const taskFileNames = {
  api: 'api_conversation_history.json',
  ui: 'ui_messages.json',
  metadata: 'task_metadata.json',
  /** Roo Code 3.5x: the task's history entry (parent, children, workspace) beside its messages. */
  historyItem: 'history_item.json',
  /** Cline 3.x: the context manager's record of edits made to the history it sends. */
  contextHistory: 'context_history.json',
} as const;

/** A document is parsed whole, so it is bounded; a larger one is reported, never half-read. */
export const maxDocumentBytes = 128 * 1024 * 1024;

/** The files a task's record is read from, in the order `DiscoveredSession.files` lists them. */
const readOrder = [taskFileNames.api, taskFileNames.ui, taskFileNames.metadata, taskFileNames.historyItem] as const;

/** The task folder's record files that exist (the conversation first); empty when it holds no messages. */
export function taskFiles(taskDir: string): SessionFile[] {
  const files: SessionFile[] = [];
  for (const name of readOrder) {
    const f = statFileSync(join(taskDir, name));
    if (f !== null) files.push(f);
  }
  const hasMessages = files.some((f) => f.path.endsWith(taskFileNames.api) || f.path.endsWith(taskFileNames.ui));
  return hasMessages ? files : [];
}

export type DocumentRead = { value: unknown } | { missing: true } | { bad: true } | { problem: FileProblem };
export type DocumentBytes = { bytes: Buffer } | { missing: true } | { problem: FileProblem };

/**
 * One JSON document's bytes, bounded. The bound is checked on the open's own stat: a stat before it
 * cost a tenth of a cold scan's file work (92 Cline tasks on the bench home, ~10 ms).
 */
export function readDocumentBytes(path: string): DocumentBytes {
  let file: OpenedFile;
  try {
    file = openRegularSync(path);
  } catch (error) {
    if (isNotFound(error)) return { missing: true };
    return { problem: { path, kind: 'unreadable', reason: errorMessage(error) } };
  }
  try {
    if (file.size > maxDocumentBytes) {
      const reason = `${file.size} bytes is over the ${maxDocumentBytes}-byte bound for a task document`;
      return { problem: { path, kind: 'oversized', reason } };
    }
    return { bytes: readOpenedBytesSync(file) };
  } catch (error) {
    return { problem: { path, kind: 'unreadable', reason: errorMessage(error) } };
  } finally {
    closeSync(file.fd);
  }
}

/** A document's text parsed; a torn or invalid one is `bad` (one bad record), never a throw. */
export function parseDocument(text: string): { value: unknown } | { bad: true } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { bad: true };
  }
}

/** Reads one JSON document; a torn or invalid document is `bad` (one bad record), never a throw. */
export function readDocument(path: string): DocumentRead {
  const read = readDocumentBytes(path);
  return 'bytes' in read ? parseDocument(read.bytes.toString('utf8')) : read;
}

/** The home a task folder lies in (the parent of `tasks/`), or null when it does not sit in one. */
export function homeOfTask(taskDir: string): string | null {
  const tasks = dirname(taskDir);
  return basename(tasks) === 'tasks' ? dirname(tasks) : null;
}

/** The task ids under `<home>/tasks` (listed through `fs`), sorted; a missing folder is none, an unreadable one a problem. */
export function listTaskIds(home: string, problems: FileProblem[], fs: DiscoveryFs = uncachedFs): string[] {
  const dir = join(home, 'tasks');
  try {
    return fs
      .list(dir)
      .filter((e) => e.kind === 'dir')
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return [];
  }
}

/** Every regular file directly in a task folder (what a keep copies), sorted. */
export function filesIn(taskDir: string): string[] {
  try {
    return readdirSync(taskDir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(taskDir, e.name))
      .sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}
