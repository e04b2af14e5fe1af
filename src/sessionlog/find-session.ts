// Finding sessions under a state root: list them, resolve an id or unique prefix (or a path that
// must stay inside `<stateRoot>/logs`), and pick the latest top-level session of a project for
// `--continue` (research §1.7, with epoch-ms ordering instead of local date strings, §9 item 4).
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isNotFound } from '../fs/errors.js';
import { parseLocalDateTime } from './clock.js';
import { SessionLogError } from './errors.js';
import { readMeta, subAgentRoles, type SessionMeta } from './meta.js';
import { files, logsRoot } from './paths.js';

export interface SessionEntry {
  dir: string;
  sessionId: string;
  /** Null when the folder has no meta, or an unreadable one (then listed in `problems`). */
  meta: SessionMeta | null;
}

/** A meta file that could not be read; `reason` names the line. */
export interface MetaProblem {
  file: string;
  reason: string;
}

export interface SessionList {
  sessions: SessionEntry[];
  problems: MetaProblem[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** Reads one folder as a session; null when it holds neither a meta nor a log. */
async function entryFor(dir: string, name: string, problems: MetaProblem[]): Promise<SessionEntry | null> {
  let meta: SessionMeta | null = null;
  try {
    meta = await readMeta(dir);
  } catch (error) {
    if (!(error instanceof SessionLogError)) throw error;
    problems.push({ file: join(dir, files.meta), reason: error.message });
    return { dir, sessionId: name, meta: null };
  }
  if (meta === null && !(await exists(join(dir, files.events)))) return null;
  return { dir, sessionId: meta?.session_id ?? name, meta };
}

/** Every session folder under `<stateRoot>/logs`, with the metas that could not be read. */
export async function listSessions(stateRoot: string): Promise<SessionList> {
  const root = logsRoot(resolve(stateRoot));
  const problems: MetaProblem[] = [];
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name);
  } catch (error) {
    if (isNotFound(error)) return { sessions: [], problems };
    throw error;
  }
  const sessions: SessionEntry[] = [];
  for (const name of names.sort()) {
    const entry = await entryFor(join(root, name), name, problems);
    if (entry !== null) sessions.push(entry);
  }
  return { sessions, problems };
}

function looksLikePath(id: string): boolean {
  return isAbsolute(id) || id.includes('/') || id.includes(sep);
}

/** A path-form id, accepted only when its real location is inside the real logs root. */
async function findByPath(stateRoot: string, target: string): Promise<SessionEntry & { problems: MetaProblem[] }> {
  const root = logsRoot(resolve(stateRoot));
  let realRoot: string;
  let real: string;
  try {
    realRoot = await realpath(root);
    real = await realpath(resolve(target));
  } catch (error) {
    if (isNotFound(error)) throw new SessionLogError('SessionNotFound', `no session folder at ${target}`, { cause: error });
    throw error;
  }
  const rel = relative(realRoot, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new SessionLogError('PathOutsideLogs', `${target} is not inside ${root}; give a session id, or a folder under the logs root`);
  }
  const problems: MetaProblem[] = [];
  const entry = await entryFor(real, rel.split(sep)[0] ?? rel, problems);
  if (entry === null) throw new SessionLogError('SessionNotFound', `${target} holds no session (no ${files.meta} or ${files.events})`);
  return { ...entry, problems };
}

/**
 * Resolves a session by exact id, else by a prefix only one session has (matching folder names
 * and meta ids). An ambiguous prefix is an error listing the candidates.
 */
export async function findSession(stateRoot: string, idOrPrefix: string): Promise<SessionEntry & { problems: MetaProblem[] }> {
  const id = idOrPrefix.trim();
  if (id === '') throw new SessionLogError('InvalidArgument', 'give a session id or a prefix of one');
  if (looksLikePath(id)) return findByPath(stateRoot, id);
  const root = logsRoot(resolve(stateRoot));
  if (id !== '.' && id !== '..') {
    const problems: MetaProblem[] = [];
    const direct = await entryFor(join(root, id), id, problems).catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
    if (direct !== null && (direct.meta === null || direct.sessionId === id)) return { ...direct, problems };
  }
  const { sessions, problems } = await listSessions(stateRoot);
  const name = (s: SessionEntry): string => s.dir.slice(root.length + 1);
  const exact = sessions.filter((s) => s.sessionId === id || name(s) === id);
  const matches = exact.length > 0 ? exact : sessions.filter((s) => s.sessionId.startsWith(id) || name(s).startsWith(id));
  const first = matches[0];
  if (first === undefined) throw new SessionLogError('SessionNotFound', `no session with id or prefix "${id}" under ${root}`);
  if (matches.length > 1) {
    const list = matches
      .slice(0, 10)
      .map((m) => m.sessionId)
      .join(', ');
    throw new SessionLogError(
      'AmbiguousSession',
      `"${id}" matches ${matches.length} sessions (${list}${matches.length > 10 ? ', …' : ''}); give more of the id`,
    );
  }
  return { ...first, problems };
}

/** When a session last moved, in epoch ms (legacy metas: their local `created_at`). */
export function sessionTimeMs(meta: SessionMeta): number {
  return meta.updated_at_ms ?? meta.created_at_ms ?? (meta.created_at !== undefined ? parseLocalDateTime(meta.created_at) : undefined) ?? 0;
}

/** The most recent top-level session of `projectRoot` (the `--continue` path); sub-agent sessions are skipped. */
export async function findLatestSession(
  stateRoot: string,
  projectRoot: string,
): Promise<{ session: SessionEntry | null; problems: MetaProblem[] }> {
  const { sessions, problems } = await listSessions(stateRoot);
  const project = resolve(projectRoot);
  let best: SessionEntry | null = null;
  let bestMs = -1;
  for (const s of sessions) {
    const meta = s.meta;
    if (meta === null || meta.project_root === undefined || resolve(meta.project_root) !== project) continue;
    if (typeof meta.role === 'string' && (subAgentRoles as readonly string[]).includes(meta.role)) continue;
    const ms = sessionTimeMs(meta);
    if (ms > bestMs) {
      best = s;
      bestMs = ms;
    }
  }
  return { session: best, problems };
}
