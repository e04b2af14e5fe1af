// Resolves a session id or unique prefix through the scan's session index, trusting an entry only
// when the session it names is claimed again at the same path with the same cache key (every file's
// size and mtime and the main file's first bytes); anything else returns null so the caller walks
// every home as before.
import { existsSync } from 'node:fs';
import type { AgentHomes, AgentReader, DiscoveredSession } from '../agents/types.js';
import { linkOnPath } from '../fs/stat.js';
import { sessionKey } from './scan-cache.js';
import { homeKey, type IndexedSession, readSessionIndex } from './session-index.js';

/** Where the scan cache lives and which readers wrote it (an index of another version is ignored). */
export interface CacheLookupOptions {
  stateRoot: string;
  readerVersion: string;
}

/** The one indexed session `target` names among these agents: its exact id, else the one id it prefixes. */
function candidate(target: string, agents: AgentHomes[], indexed: readonly IndexedSession[]): IndexedSession[] {
  const mine = indexed.filter((s) => agents.some((a) => a.reader.id === s.agent));
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
 * The session with this exact id, else the one session whose id starts with it, from the scan's
 * index, verified against the files as they are now. Null (walk the homes instead) on a miss, on
 * more than one indexed candidate, on a file that changed, moved or vanished, and on an absent or
 * unusable index. A prefix is answered only when the index covers every home asked about and no
 * folder there (nor a file several sessions share) changed since the scan: a session written since
 * could share the prefix, and only a walk would see it.
 */
export async function lookupCachedId(
  target: string,
  agents: AgentHomes[],
  opts: CacheLookupOptions,
): Promise<{ reader: AgentReader; session: DiscoveredSession } | null> {
  if (target === '') return null;
  const index = readSessionIndex(opts.stateRoot, opts.readerVersion);
  if (index === null) return null;
  const found = candidate(target, agents, index.sessions);
  const only = found[0];
  if (only === undefined || found.length > 1) return null;
  if (only.id !== target) {
    // A home the scan did not walk (one learned since, like a project Aider ran in) holds nothing only if it is absent.
    const covered = agents.every((a) => a.homes.every((h) => index.homes.has(homeKey(a.reader.id, h)) || !existsSync(h)));
    if (!covered || !index.unchanged()) return null;
  }
  const agent = agents.find((a) => a.reader.id === only.agent);
  if (agent === undefined) return null;
  const session = await verified(only, agent);
  return session === null ? null : { reader: agent.reader, session };
}
