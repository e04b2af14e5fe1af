// Resolves an exact session id through the scan cache, trusting an entry only when the session it
// names is claimed again at the same path with the same cache key (every file's size and mtime and
// the main file's first bytes); anything else returns null so the caller walks every home as before.
import { readFile } from 'node:fs/promises';
import type { AgentHomes, AgentReader, DiscoveredSession } from '../agents/types.js';
import { linkOnPath } from '../fs/stat.js';
import { scanCachePath, scanCacheVersion, sessionKey } from './scan-cache.js';

/** Where the scan cache lives and which readers wrote it (a cache of another version is ignored). */
export interface CacheLookupOptions {
  stateRoot: string;
  readerVersion: string;
}

/** One cache entry as far as the lookup reads it (the rest is the scan's business, validated there). */
interface LookupEntry {
  key: string;
  row: { agent: string; session_id: string } | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields the lookup reads, checked by hand: a zod pass over every entry of a large cache cost
 * more than the walk it saves (the bench's tail section), and an entry is only ever trusted after
 * its files are claimed and keyed again.
 */
function lookupEntry(v: unknown): LookupEntry | null {
  if (!isRecord(v) || typeof v.key !== 'string') return null;
  if (v.row === null) return { key: v.key, row: null };
  const row = v.row;
  if (!isRecord(row) || typeof row.agent !== 'string' || typeof row.session_id !== 'string') return null;
  return { key: v.key, row: { agent: row.agent, session_id: row.session_id } };
}

interface Candidate {
  reader: AgentReader;
  homes: string[];
  linkFree: string[];
  path: string;
  key: string;
}

/** The cache file's entries for this reader version, or null when it is absent, unreadable, corrupt or stale. */
async function readEntries(opts: CacheLookupOptions): Promise<Record<string, unknown> | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(scanCachePath(opts.stateRoot), 'utf8'));
  } catch {
    // Never repaired or moved aside here: `scan` owns the file and reports what is wrong with it.
    return null;
  }
  if (!isRecord(json) || json.version !== scanCacheVersion || json.readerVersion !== opts.readerVersion || !isRecord(json.entries))
    return null;
  return json.entries;
}

/**
 * The session with exactly this id, from the cache, verified against the files as they are now.
 * Null (walk the homes instead) on a miss, on more than one cached session with the id, on a file
 * that changed, moved or vanished, and on an absent or unusable cache. Prefixes are never answered
 * here: a session written since the last scan could share the prefix, and only a walk would see it.
 */
export async function lookupCachedId(
  id: string,
  agents: AgentHomes[],
  opts: CacheLookupOptions,
): Promise<{ reader: AgentReader; session: DiscoveredSession } | null> {
  const entries = await readEntries(opts);
  if (entries === null) return null;
  const candidates: Candidate[] = [];
  for (const [cacheId, raw] of Object.entries(entries)) {
    const entry = lookupEntry(raw);
    if (entry === null) return null;
    if (entry.row === null || entry.row.session_id !== id) continue;
    const agent = agents.find((a) => a.reader.id === entry.row?.agent);
    if (agent === undefined) continue;
    // The scan keys entries `<agent>:<absolute path>`.
    const path = cacheId.slice(`${agent.reader.id}:`.length);
    candidates.push({ reader: agent.reader, homes: agent.homes, linkFree: agent.linkFree ?? [], path, key: entry.key });
  }
  const only = candidates[0];
  if (only === undefined || candidates.length > 1) return null;
  let session: DiscoveredSession | null;
  try {
    session = await only.reader.claim(only.path);
    if (session === null) return null;
    if (session.agent !== only.reader.id || session.sessionId !== id || session.path !== only.path) return null;
    if (!only.homes.includes(session.home)) return null;
    // In a kept copy a link is refused, never followed: the walk reports it.
    const home = session.home;
    if (only.linkFree.includes(home) && session.files.some((f) => linkOnPath(home, f.path) !== null)) return null;
    if ((await sessionKey(session)) !== only.key) return null;
  } catch {
    return null;
  }
  return { reader: only.reader, session };
}
