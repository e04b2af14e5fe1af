// OpenCode's JSON tree under `<home>/storage`: `session/<project>/<session>.json`,
// `message/<session-id>/<message>.json`, and parts either in `part/<message-id>/<part>.json` or,
// in the oldest layout, flat in `part/` naming their `messageID`.
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { str, text } from '../../json/narrow.js';
import { errorMessage, isNotFound, statFile } from '../../fs/stat.js';
import type { FileProblem, SessionFile } from '../types.js';
import { maxPartFileBytes, maxSessionFileBytes, readJsonFile } from './json-file.js';
import { sessionFromJson, sortMessages, type OcMessage, type OcSession, type OcSessionData, type OcTree } from './model.js';

export interface TreeSession {
  session: OcSession;
  /** The session file first, then each message file followed by its part files. */
  files: SessionFile[];
}

const jsonName = /\.json$/i;

function stem(path: string): string {
  return basename(path).replace(jsonName, '');
}

async function listDir(dir: string, problems: FileProblem[]): Promise<{ files: string[]; dirs: string[] }> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile() && jsonName.test(e.name)).map((e) => e.name).sort();
    const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
    return { files, dirs };
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return { files: [], dirs: [] };
  }
}

async function statAll(paths: string[]): Promise<SessionFile[]> {
  const stats = await Promise.all(paths.map((p) => statFile(p)));
  return stats.filter((s): s is SessionFile => s !== null);
}

/** The storage folder a session file sits in (`<storage>/session/<project>/<file>`), if it does. */
export function storageOf(sessionFile: string): string | undefined {
  const projectDir = dirname(sessionFile);
  const sessionDir = dirname(projectDir);
  return basename(sessionDir) === 'session' ? dirname(sessionDir) : undefined;
}

/** Lists every session of a JSON tree with its files (reading session files, which are small). */
export async function scanJsonTree(storage: string): Promise<{ sessions: TreeSession[]; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  const sessionRoot = join(storage, 'session');
  const partRoot = join(storage, 'part');
  const partListing = await listDir(partRoot, problems);
  const partDirs = new Set(partListing.dirs);
  // The oldest layout keeps parts flat; each names its message, so they are read once here.
  const flatParts = new Map<string, string[]>();
  for (const name of partListing.files) {
    const path = join(partRoot, name);
    const r = await readJsonFile(path, maxPartFileBytes);
    const messageId = 'value' in r ? text(r.value, 'messageID') : undefined;
    if (messageId !== undefined) flatParts.set(messageId, [...(flatParts.get(messageId) ?? []), path]);
  }

  const sessions: TreeSession[] = [];
  for (const project of (await listDir(sessionRoot, problems)).dirs) {
    for (const name of (await listDir(join(sessionRoot, project), problems)).files) {
      const path = join(sessionRoot, project, name);
      const r = await readJsonFile(path, maxSessionFileBytes);
      if ('problem' in r) {
        problems.push(r.problem);
        continue;
      }
      if ('bad' in r) {
        problems.push({ path, kind: 'unparsed', reason: 'not a JSON object: no OpenCode session in this file' });
        continue;
      }
      const main = await statFile(path);
      if (main === null) continue;
      const session = sessionFromJson(r.value, stem(path));
      const files: SessionFile[] = [main];
      const messageDir = join(storage, 'message', session.id);
      for (const messageName of (await listDir(messageDir, problems)).files) {
        const messagePath = join(messageDir, messageName);
        // Message files are named by their id; where no part folder has that name, the id inside counts.
        let messageId = stem(messagePath);
        if (!partDirs.has(messageId) && !flatParts.has(messageId)) {
          const m = await readJsonFile(messagePath, maxSessionFileBytes);
          messageId = ('value' in m ? text(m.value, 'id') : undefined) ?? messageId;
        }
        const partPaths = partDirs.has(messageId) ? (await listDir(join(partRoot, messageId), problems)).files.map((f) => join(partRoot, messageId, f)) : [];
        files.push(...(await statAll([messagePath, ...partPaths, ...(flatParts.get(messageId) ?? [])])));
      }
      sessions.push({ session, files });
    }
  }
  return { sessions, problems };
}

export interface LoadedTree {
  tree: OcTree | null;
  badLines: { path: string; count: number }[];
  problems: FileProblem[];
}

/**
 * Reads a session (and the descendants whose files discovery put in its list) from exactly the
 * files listed. `rootPath` is the session file; files outside `<storage>/{message,part}` are
 * read as session files.
 */
export async function loadJsonTree(rootPath: string, files: readonly SessionFile[]): Promise<LoadedTree> {
  const storage = storageOf(rootPath);
  const badLines: { path: string; count: number }[] = [];
  const problems: FileProblem[] = [];
  const sessions = new Map<string, OcSessionData>();
  const messagesBySession = new Map<string, OcMessage[]>();
  const messages = new Map<string, OcMessage>();
  const parts: { messageId: string | undefined; value: Record<string, unknown> }[] = [];
  let rootId: string | undefined;

  for (const file of files) {
    const rel = storage === undefined ? [] : relative(storage, file.path).split(sep);
    const isMessage = rel.length === 3 && rel[0] === 'message';
    const isPart = rel[0] === 'part' && (rel.length === 3 || rel.length === 2);
    const r = await readJsonFile(file.path, isPart ? maxPartFileBytes : maxSessionFileBytes);
    if ('problem' in r) {
      problems.push(r.problem);
      continue;
    }
    if ('bad' in r) {
      badLines.push({ path: file.path, count: 1 });
      continue;
    }
    if (isMessage) {
      const sessionId = rel[1] as string;
      const id = text(r.value, 'id') ?? stem(file.path);
      const message: OcMessage = { id, info: { ...r.value, id, sessionID: str(r.value, 'sessionID') ?? sessionId }, parts: [] };
      messages.set(id, message);
      messagesBySession.set(sessionId, [...(messagesBySession.get(sessionId) ?? []), message]);
    } else if (isPart) {
      parts.push({ messageId: text(r.value, 'messageID') ?? (rel.length === 3 ? rel[1] : undefined), value: { ...r.value } });
    } else {
      const session = sessionFromJson(r.value, stem(file.path));
      sessions.set(session.id, { session, messages: [] });
      if (file.path === rootPath) rootId = session.id;
    }
  }
  for (const p of parts) {
    const message = p.messageId === undefined ? undefined : messages.get(p.messageId);
    message?.parts.push({ ...p.value, messageID: p.messageId });
  }
  for (const [sessionId, list] of messagesBySession) {
    const data = sessions.get(sessionId);
    if (data !== undefined) data.messages = sortMessages(list);
  }
  return { tree: rootId === undefined ? null : { rootId, sessions }, badLines, problems };
}
