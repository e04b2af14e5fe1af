// Finds the session `show` (and later `tail`, `keep`) is asked about: a path, an id or a unique prefix.
import { stat } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { AgentReader, DiscoveredSession } from '../agents/types.js';
import { isNotFound } from '../fs/errors.js';
import { lookupCachedId, type CacheLookupOptions } from './cache-lookup.js';
import { ScanError } from './errors.js';
import { discoverAll, type AgentHomes } from './scan.js';

export interface Resolved {
  reader: AgentReader;
  session: DiscoveredSession;
}

/** True when the argument reads as a path rather than an id. */
export function looksLikePath(target: string): boolean {
  return target.includes('/') || target.startsWith('.') || /\.(jsonl?|db)$/i.test(target);
}

/** Claims a file or folder with the first reader that recognises it. */
export async function resolvePathTarget(path: string, readers: readonly AgentReader[]): Promise<Resolved> {
  const abs = resolvePath(path);
  // Readers claim first: some paths name a session inside a file (`opencode.db#ses_…`).
  for (const reader of readers) {
    const session = await reader.claim(abs).catch(() => null);
    if (session !== null) return { reader, session };
  }
  try {
    await stat(abs);
  } catch (error) {
    if (isNotFound(error)) throw new ScanError('PathNotFound', `no such file or folder: ${path}`, { cause: error });
    throw new ScanError('IOError', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  throw new ScanError('NotASession', `${path} is not a session log agentlog can read (${readers.map((r) => r.displayName).join(', ')})`);
}

/**
 * Finds a session by exact id, else by a prefix only one session has. With `cache`, an exact id the
 * scan cache holds (and the files still match) is answered without walking every home.
 */
export async function resolveIdTarget(id: string, agents: AgentHomes[], cache?: CacheLookupOptions): Promise<Resolved> {
  // Every id starts with the empty prefix: a blank target would pick whichever session is alone.
  if (id.trim() === '')
    throw new ScanError('AmbiguousSession', 'an empty session id matches every session; give an id, a unique id prefix or a file');
  if (cache !== undefined) {
    const hit = await lookupCachedId(id, agents, cache);
    if (hit !== null) return hit;
  }
  const { sessions } = await discoverAll(agents);
  const exact = sessions.filter((s) => s.session.sessionId === id);
  const matches = exact.length > 0 ? exact : sessions.filter((s) => s.session.sessionId.startsWith(id));
  const first = matches[0];
  if (first === undefined) {
    const where = agents.flatMap((a) => a.homes).join(', ');
    throw new ScanError('SessionNotFound', `no session with id or prefix "${id}" under ${where || 'any agent home'}`);
  }
  if (matches.length > 1) {
    const list = matches
      .slice(0, 10)
      .map((m) => `${m.session.agent} ${m.session.sessionId}`)
      .join(', ');
    throw new ScanError(
      'AmbiguousSession',
      `"${id}" matches ${matches.length} sessions (${list}${matches.length > 10 ? ', …' : ''}); give more of the id`,
    );
  }
  return first;
}

export async function resolveTarget(target: string, agents: AgentHomes[], cache?: CacheLookupOptions): Promise<Resolved> {
  if (looksLikePath(target))
    return resolvePathTarget(
      target,
      agents.map((a) => a.reader),
    );
  try {
    return await resolveIdTarget(target, agents, cache);
  } catch (error) {
    // An id that is also a file name in the current folder still works.
    if (error instanceof ScanError && error.code === 'SessionNotFound') {
      try {
        await stat(target);
      } catch {
        throw error;
      }
      return resolvePathTarget(
        target,
        agents.map((a) => a.reader),
      );
    }
    throw error;
  }
}
