// OpenCode's JSON tree under `<home>/storage`: `session/<project>/<session>.json`,
// `message/<session-id>/<message>.json`, and parts either in `part/<message-id>/<part>.json` or,
// in the oldest layout, flat in `part/` naming their `messageID`.
// Reads are synchronous: thousands of small files, each a promise round trip through the thread
// pool otherwise (see json-file.ts).
import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { asObject, num, str, text, type JsonObject } from '../../json/narrow.js';
import { type DiscoveryFs, uncachedFs } from '../../fs/dir-listing.js';
import { statFileSync } from '../../fs/stat.js';
import { errorMessage, isNotFound } from '../../fs/errors.js';
import type { FileProblem, SessionFile } from '../types.js';
import { maxPartFileBytes, maxSessionFileBytes, readJsonFileSync, readSeenJsonFileSync } from './json-file.js';
import { cutToolPart } from './summary-cut.js';
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

/** One listing per folder: its JSON files and its subfolders, each sorted. */
function listDir(fs: DiscoveryFs, dir: string, problems: FileProblem[]): { files: string[]; dirs: string[] } {
  try {
    const entries = fs.list(dir);
    const files: string[] = [];
    const dirs: string[] = [];
    for (const e of entries) {
      if (e.kind === 'file') {
        if (jsonName.test(e.name)) files.push(e.name);
      } else if (e.kind === 'dir') dirs.push(e.name);
      else if (jsonName.test(e.name) && e.kind !== 'link') {
        // A FIFO, socket or device named like a storage file is never opened: it could block forever.
        const path = under(dir, e.name);
        problems.push({ path, kind: 'unreadable', reason: `${path} is not a regular file: it is not read` });
      }
    }
    return { files: files.sort(), dirs: dirs.sort() };
  } catch (error) {
    if (!isNotFound(error)) problems.push({ path: dir, kind: 'unreadable', reason: errorMessage(error) });
    return { files: [], dirs: [] };
  }
}

/** A remembered session header, as `sessionFromJson` made it; undefined for anything else. */
function decodeSession(value: unknown): OcSession | undefined {
  const o = asObject(value);
  const id = str(o, 'id');
  if (o === undefined || id === undefined) return undefined;
  const s: OcSession = { id };
  const parentId = str(o, 'parentId');
  if (parentId !== undefined) s.parentId = parentId;
  const directory = str(o, 'directory');
  if (directory !== undefined) s.directory = directory;
  const title = str(o, 'title');
  if (title !== undefined) s.title = title;
  const created = num(o, 'createdMs');
  if (created !== undefined) s.createdMs = created;
  const updated = num(o, 'updatedMs');
  if (updated !== undefined) s.updatedMs = updated;
  return s;
}

/** A remembered id (`{ id }`, null for none). */
function decodeId(value: unknown): { id: string | null } | undefined {
  const o = asObject(value);
  if (o === undefined) return undefined;
  if (o['id'] === null) return { id: null };
  const id = str(o, 'id');
  return id === undefined ? undefined : { id };
}

/** The id a message or part file names under `key` (`id`, `messageID`), remembered while the file is unchanged. */
async function idInside(fs: DiscoveryFs, path: string, key: string, maxBytes: number): Promise<string | undefined> {
  const found = await fs.derive(path, `opencode:${key}`, decodeId, async () => {
    const r = readJsonFileSync(path, maxBytes);
    return { id: ('value' in r ? text(r.value, key) : undefined) ?? null };
  });
  return found.id ?? undefined;
}

/** `dir` and `name` joined: both come from `join` or readdir, so this is `join`'s answer without its normalising pass (~15k per unchanged scan). */
const under = (dir: string, name: string): string => dir + sep + name;

/** Size and mtime of the file at `path` into `into` while it is still a regular file (a gone one is left out). */
function statInto(path: string, into: SessionFile[]): void {
  let s;
  try {
    s = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  if (s?.isFile()) into.push({ path, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) });
}

/** The storage folder a session file sits in (`<storage>/session/<project>/<file>`), if it does. */
export function storageOf(sessionFile: string): string | undefined {
  const projectDir = dirname(sessionFile);
  const sessionDir = dirname(projectDir);
  return basename(sessionDir) === 'session' ? dirname(sessionDir) : undefined;
}

/**
 * Lists every session of a JSON tree with its files (reading session files, which are small).
 * `fs` lists folders and remembers what session and message files say (see DiscoveryFs). Sessions
 * whose id `elsewhere` holds (read from a database) are left out before their files are listed.
 */
export async function scanJsonTree(
  storage: string,
  fs: DiscoveryFs = uncachedFs,
  elsewhere: ReadonlySet<string> = new Set(),
): Promise<{ sessions: TreeSession[]; problems: FileProblem[] }> {
  const problems: FileProblem[] = [];
  const sessionRoot = join(storage, 'session');
  const partRoot = join(storage, 'part');
  const partListing = listDir(fs, partRoot, problems);
  const partDirs = new Set(partListing.dirs);
  // The oldest layout keeps parts flat; each names its message, so they are read once here.
  const flatParts = new Map<string, string[]>();
  for (const name of partListing.files) {
    const path = under(partRoot, name);
    const messageId = await idInside(fs, path, 'messageID', maxPartFileBytes);
    if (messageId === undefined) continue;
    const list = flatParts.get(messageId);
    if (list === undefined) flatParts.set(messageId, [path]);
    else list.push(path);
  }

  const sessions: TreeSession[] = [];
  for (const project of listDir(fs, sessionRoot, problems).dirs) {
    const projectDir = under(sessionRoot, project);
    for (const name of listDir(fs, projectDir, problems).files) {
      const path = under(projectDir, name);
      let fresh: SessionFile | undefined;
      const session = await fs.derive(path, 'opencode:session', decodeSession, async () => {
        const r = readJsonFileSync(path, maxSessionFileBytes);
        if ('problem' in r) problems.push(r.problem);
        else if ('bad' in r) problems.push({ path, kind: 'unparsed', reason: 'not a JSON object: no OpenCode session in this file' });
        else {
          // The descriptor the file was read through tells its size and mtime: no second stat.
          fresh = r.file;
          return sessionFromJson(r.value, stem(path));
        }
        return null;
      });
      // OpenCode v1.2 moved the tree into its database and left the files behind: listing and
      // stat'ing the messages and parts of a session read from there is wasted.
      if (session === null || elsewhere.has(session.id)) continue;
      const main = fresh ?? statFileSync(path);
      if (main === null) continue;
      const files: SessionFile[] = [main];
      const messageDir = join(storage, 'message', session.id);
      for (const messageName of listDir(fs, messageDir, problems).files) {
        const messagePath = under(messageDir, messageName);
        // Message files are named by their id; where no part folder has that name, the id inside counts.
        let messageId = stem(messagePath);
        if (!partDirs.has(messageId) && !flatParts.has(messageId))
          messageId = (await idInside(fs, messagePath, 'id', maxSessionFileBytes)) ?? messageId;
        statInto(messagePath, files);
        if (partDirs.has(messageId)) {
          const partDir = under(partRoot, messageId);
          for (const f of listDir(fs, partDir, problems).files) statInto(under(partDir, f), files);
        }
        const flat = flatParts.get(messageId);
        if (flat !== undefined) for (const f of flat) statInto(f, files);
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
/**
 * A file's path below `storage`, split into segments. Discovery's paths are `join`ed, so they are
 * normalised and a prefix test gives what `relative` would; any other path takes `relative`.
 */
function storageSegments(storage: string, plainStorage: boolean, path: string): string[] {
  if (plainStorage && path.length > storage.length + 1 && path.startsWith(storage) && path.charCodeAt(storage.length) === sepCode) {
    const segments = path.slice(storage.length + 1).split(sep);
    if (segments.every((s) => s !== '' && s !== '.' && s !== '..')) return segments;
  }
  return relative(storage, path).split(sep);
}

const sepCode = sep.charCodeAt(0);

/** `full`: parts are parsed whole; below it a tool part's long outputs are cut first (summary-cut.ts). */
export async function loadJsonTree(rootPath: string, files: readonly SessionFile[], full = true): Promise<LoadedTree> {
  const storage = storageOf(rootPath);
  const plainStorage = storage !== undefined && isAbsolute(storage) && normalize(storage) === storage && !storage.endsWith(sep);
  const badLines: { path: string; count: number }[] = [];
  const problems: FileProblem[] = [];
  const sessions = new Map<string, OcSessionData>();
  const messagesBySession = new Map<string, OcMessage[]>();
  const messages = new Map<string, OcMessage>();
  const parts: { messageId: string | undefined; value: Record<string, unknown> }[] = [];
  let rootId: string | undefined;

  for (const file of files) {
    const rel = storage === undefined ? [] : storageSegments(storage, plainStorage, file.path);
    const isMessage = rel.length === 3 && rel[0] === 'message';
    const isPart = rel[0] === 'part' && (rel.length === 3 || rel.length === 2);
    // Discovery stat'ed each file just now: its size serves the read (readSeenJsonFileSync).
    const r = isPart
      ? readSeenJsonFileSync(file, maxPartFileBytes, full ? undefined : cutToolPart)
      : readSeenJsonFileSync(file, maxSessionFileBytes);
    if ('problem' in r) {
      problems.push(r.problem);
      continue;
    }
    if ('bad' in r) {
      badLines.push({ path: file.path, count: 1 });
      continue;
    }
    // The parsed object is this reader's own: ids are merged into it rather than into a copy.
    const value = r.value as Record<string, unknown>;
    if (isMessage) {
      const sessionId = rel[1] as string;
      const id = text(value, 'id') ?? stem(file.path);
      value['id'] = id;
      value['sessionID'] = str(value, 'sessionID') ?? sessionId;
      const message: OcMessage = { id, info: value, parts: [] };
      messages.set(id, message);
      const list = messagesBySession.get(sessionId);
      if (list === undefined) messagesBySession.set(sessionId, [message]);
      else list.push(message);
    } else if (isPart) {
      parts.push({ messageId: text(value, 'messageID') ?? (rel.length === 3 ? rel[1] : undefined), value });
    } else {
      const session = sessionFromJson(value, stem(file.path));
      sessions.set(session.id, { session, messages: [] });
      if (file.path === rootPath) rootId = session.id;
    }
  }
  for (const p of parts) {
    const message = p.messageId === undefined ? undefined : messages.get(p.messageId);
    if (message === undefined) continue;
    p.value['messageID'] = p.messageId;
    message.parts.push(p.value as JsonObject);
  }
  for (const [sessionId, list] of messagesBySession) {
    const data = sessions.get(sessionId);
    if (data !== undefined) data.messages = sortMessages(list);
  }
  return { tree: rootId === undefined ? null : { rootId, sessions }, badLines, problems };
}
