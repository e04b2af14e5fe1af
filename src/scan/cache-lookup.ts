// Resolves a session id or unique prefix through the scan's session index, trusting an entry only
// when the session it names is claimed again at the same path with the same cache key (every file's
// size and mtime and the main file's first bytes); anything else returns null so the caller walks
// every home as before. An exact id loads only its own agent's reader.
import { existsSync } from 'node:fs';
import type { AgentHomes, AgentReader, DiscoveredSession } from '../agents/types.js';
import { linkOnPath } from '../fs/stat.js';
import type { AgentId } from '../record/types.js';
import type { AgentSource } from './resolve.js';
import { sessionKey } from './session-key.js';
import { homeKey, type IndexedSession, indexedById, readIndexBytes, readSessionIndex, type SessionIndex } from './session-index.js';

/** Where the scan cache lives and which readers wrote it (an index of another version is ignored). */
export interface CacheLookupOptions {
  stateRoot: string;
  readerVersion: string;
}

/** The indexed sessions `target` names among these agents: its exact id, else the ids it prefixes. */
function candidates(target: string, ids: readonly AgentId[], indexed: readonly IndexedSession[]): IndexedSession[] {
  const mine = indexed.filter((s) => (ids as readonly string[]).includes(s.agent));
  const exact = mine.filter((s) => s.id === target);
  return exact.length > 0 ? exact : mine.filter((s) => s.id.startsWith(target));
}

/** The indexed session claimed again as it is now, or null when anything about it changed. */
async function verified(entry: IndexedSession, agent: AgentHomes): Promise<DiscoveredSession | null> {
  try {
    const session = await agent.reader.claim(entry.path);
    if (session === null) return null;
    if (session.agent !== agent.reader.id || session.sessionId !== entry.id || session.path !== entry.path) return null;
    if (!agent.homes.includes(session.home)) return null;
    // In a kept copy a link is refused, never followed: the walk reports it.
    const home = session.home;
    if ((agent.linkFree ?? []).includes(home) && session.files.some((f) => linkOnPath(home, f.path) !== null)) return null;
    if ((await sessionKey(session)) !== entry.key) return null;
    return session;
  } catch {
    return null;
  }
}

/**
 * True when no session outside the index can share the prefix: no folder the scan saw (nor a file
 * several sessions share) changed since, and the homes it did not walk (a project that very scan
 * learned, where Aider keeps its log; a kept copy made since) hold no session with that prefix.
 * Those homes alone are walked here: a few stats against a walk of every home.
 */
async function onlyIndexedShare(target: string, index: SessionIndex, source: AgentSource): Promise<boolean> {
  if (!index.unchanged()) return false;
  const uncovered: AgentHomes[] = [];
  for (const a of await source.load()) {
    const homes = a.homes.filter((h) => !index.homes.has(homeKey(a.reader.id, h)) && existsSync(h));
    if (homes.length > 0) uncovered.push({ ...a, homes, linkFree: (a.linkFree ?? []).filter((h) => homes.includes(h)) });
  }
  if (uncovered.length === 0) return true;
  const { discoverAll } = await import('./scan.js');
  const { sessions } = await discoverAll(uncovered);
  return !sessions.some((s) => s.session.sessionId.startsWith(target));
}

/**
 * The indexed sessions `target` names among these agents: its exact id from its own line of the
 * index, else those it prefixes from the whole index (read once for both); null without an index,
 * or when a lone prefix match could be shared by a session outside it (`onlyIndexedShare`).
 */
async function indexedCandidates(target: string, source: AgentSource, opts: CacheLookupOptions): Promise<IndexedSession[] | null> {
  const bytes = readIndexBytes(opts.stateRoot);
  const exact = indexedById(opts.stateRoot, opts.readerVersion, target, bytes)?.filter((s) =>
    (source.ids as readonly string[]).includes(s.agent),
  );
  if (exact !== undefined && exact.length > 0) return exact;
  const index = readSessionIndex(opts.stateRoot, opts.readerVersion, bytes);
  if (index === null) return null;
  const found = candidates(target, source.ids, index.sessions);
  const [first] = found;
  if (found.length === 1 && first !== undefined && first.id !== target && !(await onlyIndexedShare(target, index, source))) return null;
  return found;
}

/**
 * The session with this exact id, else the one session whose id starts with it, from the scan's
 * index, verified against the files as they are now. Null (walk the homes instead) on a miss, on
 * more than one indexed candidate, on a file that changed, moved or vanished, and on an absent or
 * unusable index. A prefix is answered only when no session outside the index could share it (see
 * `onlyIndexedShare`): a session written since the scan could, and only a walk would see it.
 */
export async function lookupCachedId(
  target: string,
  source: AgentSource,
  opts: CacheLookupOptions,
): Promise<{ reader: AgentReader; session: DiscoveredSession } | null> {
  if (target === '') return null;
  const found = await indexedCandidates(target, source, opts);
  const only = found?.[0];
  if (found === null || only === undefined || found.length > 1) return null;
  const [agent] = await source.load([only.agent as AgentId]);
  if (agent === undefined || agent.reader.id !== only.agent) return null;
  const session = await verified(only, agent);
  return session === null ? null : { reader: agent.reader, session };
}
