// The sweep's discovery: every session of every agent that extracts messages, one per (agent,
// session id), vendor homes before kept copies; and which agents were listed completely, so that
// only theirs may be flagged gone. An agent home that cannot be read is a reported problem.
import { realpathSync } from 'node:fs';
import type { AgentReader, DiscoveredSession, MessageExtractor } from '../agents/types.js';
import { type DiscoveryFs, uncachedFs } from '../fs/dir-listing.js';
import { errorMessage, isNotFound } from '../fs/errors.js';
import type { AgentId } from '../record/types.js';
import type { AgentHomes } from '../scan/scan.js';
import { entryKey } from './manifest.js';
import type { SweepCaches } from './sweep-caches.js';
import type { SweepReport } from './sweep-report.js';

export interface Candidate {
  reader: AgentReader;
  extractor: MessageExtractor;
  session: DiscoveredSession;
  key: string;
  homeIndex: number;
  newestMs: number;
}

function newestMtime(s: DiscoveredSession): number {
  let n = 0;
  for (const f of s.files) if (f.mtimeMs > n) n = f.mtimeMs;
  return n;
}

interface HomeList {
  homeIndex: number;
  sessions: DiscoveredSession[];
}

interface AgentListing {
  lists: HomeList[];
  complete: boolean;
  problems: SweepReport['problems'];
  failed: SweepReport['failed'];
}

/** One agent's homes, listed in order; `complete` is false when any of them could not be read whole. */
async function listAgent(reader: AgentReader, homes: readonly string[], fs: DiscoveryFs): Promise<AgentListing> {
  const out: AgentListing = { lists: [], complete: true, problems: [], failed: [] };
  const seen = new Set<string>();
  for (const [homeIndex, home] of homes.entries()) {
    let canonical: string;
    try {
      // Synchronous: a few homes per agent, and the promise version walks the path component by component.
      canonical = realpathSync.native(home);
    } catch (error) {
      // An agent that is not installed has no home: nothing to say. Anything else is a problem.
      if (isNotFound(error)) continue;
      out.complete = false;
      out.problems.push({ path: home, reason: `${reader.id} home unreadable: ${errorMessage(error)}` });
      continue;
    }
    if (seen.has(canonical)) continue;
    seen.add(canonical);
    try {
      const found = await reader.discover(canonical, fs);
      for (const p of found.problems) {
        if (p.kind === 'unreadable') out.complete = false;
        out.problems.push({ path: p.path, reason: `${reader.id} ${p.kind}: ${p.reason}` });
      }
      out.lists.push({ homeIndex, sessions: found.sessions });
    } catch (error) {
      out.complete = false;
      out.failed.push({ session: `${reader.id}:${home}`, reason: `discovery failed: ${errorMessage(error)}` });
    }
  }
  return out;
}

/**
 * Every session to consider, one per (agent, session id): the earliest home wins (vendor homes come
 * before kept copies, so the vendor copy is preferred while it exists); within one home the newest
 * copy wins, then the smaller path, so the choice never depends on directory order. Homes are
 * canonicalised so two spellings of one home give one set of cursors. `clean`: the agents whose
 * every home was listed completely. `caches`: where each agent's folders are listed from (its
 * discovery cache); omitted, every folder is listed afresh.
 */
export async function discoverCandidates(
  agents: readonly AgentHomes[],
  report: SweepReport,
  caches?: SweepCaches,
): Promise<{ candidates: Candidate[]; clean: Set<AgentId> }> {
  const byKey = new Map<string, Candidate>();
  const clean = new Set<AgentId>();
  // Agents are discovered concurrently (their walks are I/O); results are merged in agent and home
  // order, so the outcome never depends on which walk finished first.
  const found = await Promise.all(
    agents.map(async ({ reader, homes }) => {
      const fs = caches === undefined ? uncachedFs : await caches.for(reader.id);
      return { reader, extractor: reader.messages, listing: await listAgent(reader, homes, fs) };
    }),
  );
  for (const { reader, extractor, listing } of found) {
    const { lists, complete } = listing;
    report.problems.push(...listing.problems);
    report.failed.push(...listing.failed);
    for (const { homeIndex, sessions } of lists) {
      for (const session of sessions) {
        const key = entryKey(reader.id, session.sessionId);
        const c: Candidate = { reader, extractor, session, key, homeIndex, newestMs: newestMtime(session) };
        const prev = byKey.get(key);
        if (prev === undefined) byKey.set(key, c);
        else if (
          prev.homeIndex === homeIndex &&
          (c.newestMs > prev.newestMs || (c.newestMs === prev.newestMs && c.session.path < prev.session.path))
        )
          byKey.set(key, c);
      }
    }
    if (complete) clean.add(reader.id);
  }
  const candidates = [...byKey.values()].sort((a, b) => b.newestMs - a.newestMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { candidates, clean };
}
