// Finds the session `show` (and later `tail`, `keep`) is asked about: a path, an id or a unique prefix.
import { stat } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type { AgentHomes, AgentReader, DiscoveredSession } from '../agents/types.js';
import { isNotFound } from '../fs/errors.js';
import { agentIds, type AgentId } from '../record/types.js';
import { lookupCachedId, type CacheLookupOptions } from './cache-lookup.js';
import { ScanError } from './errors.js';

export interface Resolved {
  reader: AgentReader;
  session: DiscoveredSession;
}

/**
 * The agents a command asks about, each reader loaded only when needed: a session the scan's index
 * names loads its own agent's reader alone.
 */
export interface AgentSource {
  /** The agents asked about, in the registry's order. */
  readonly ids: readonly AgentId[];
  /** Those of them named (every one by default) with their homes, in the registry's order. */
  load(ids?: readonly AgentId[]): Promise<AgentHomes[]>;
}

/** A source over readers already loaded (tests, and callers that hold the list). */
export function fixedAgents(agents: readonly AgentHomes[]): AgentSource {
  return {
    ids: agentIds.filter((id) => agents.some((a) => a.reader.id === id)),
    load: async (ids) => agents.filter((a) => ids === undefined || ids.includes(a.reader.id)),
  };
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
 * What a miss says: how many sessions of which agents were searched. Not the homes themselves: with
 * fifteen agents and their editor variants that is a list of hundreds of paths, mostly absent.
 */
function notFoundMessage(id: string, sessions: readonly { session: { agent: string } }[]): string {
  if (sessions.length === 0) return `no session with id or prefix "${id}": no agent home on this machine holds any session`;
  const perAgent = new Map<string, number>();
  for (const s of sessions) perAgent.set(s.session.agent, (perAgent.get(s.session.agent) ?? 0) + 1);
  const counts = [...perAgent].map(([agent, n]) => `${agent} ${n}`).join(', ');
  const noun = sessions.length === 1 ? 'session' : 'sessions';
  return `no session with id or prefix "${id}" among ${sessions.length} ${noun} (${counts}); \`agentlog scan\` lists them`;
}

/**
 * Finds a session by exact id, else by a prefix only one session has. With `cache`, an exact id the
 * scan cache holds (and the files still match) is answered without walking every home.
 */
export async function resolveIdTarget(id: string, source: AgentSource, cache?: CacheLookupOptions): Promise<Resolved> {
  // Every id starts with the empty prefix: a blank target would pick whichever session is alone.
  if (id.trim() === '')
    throw new ScanError('AmbiguousSession', 'an empty session id matches every session; give an id, a unique id prefix or a file');
  if (cache !== undefined) {
    const hit = await lookupCachedId(id, source, cache);
    if (hit !== null) return hit;
  }
  // The walk (and the scan code it lives in) loads only on a miss.
  const [agents, { discoverAll }] = await Promise.all([source.load(), import('./scan.js')]);
  const { sessions } = await discoverAll(agents);
  const exact = sessions.filter((s) => s.session.sessionId === id);
  const matches = exact.length > 0 ? exact : sessions.filter((s) => s.session.sessionId.startsWith(id));
  const first = matches[0];
  if (first === undefined) throw new ScanError('SessionNotFound', notFoundMessage(id, sessions));
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

export async function resolveTarget(target: string, source: AgentSource, cache?: CacheLookupOptions): Promise<Resolved> {
  const readers = async (): Promise<AgentReader[]> => (await source.load()).map((a) => a.reader);
  if (looksLikePath(target)) return resolvePathTarget(target, await readers());
  try {
    return await resolveIdTarget(target, source, cache);
  } catch (error) {
    // An id that is also a file name in the current folder still works.
    if (error instanceof ScanError && error.code === 'SessionNotFound') {
      try {
        await stat(target);
      } catch {
        throw error;
      }
      return resolvePathTarget(target, await readers());
    }
    throw error;
  }
}
