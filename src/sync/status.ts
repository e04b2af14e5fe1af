// What `agentlog status` reports per allowed path: how many sessions it covers, judged as sync
// first judges them (by the header's, or the scan cache's, directories; nothing else is read).
import type { AgentHomes } from '../agents/types.js';
import type { ScanCache } from '../scan/scan-cache.js';
import { discoverAll } from '../scan/scan.js';
import type { Allowlist } from './allow/allow-file.js';
import { coveringRoot, decideOptIn, normalisePath, type RealPath } from './allow/opt-in.js';
import { cwdCandidates, knownCwds } from './prepare.js';

/** Sessions per allowed root (each under the most specific root its first directory sits in), and in all. */
export async function coveredSessions(
  agents: AgentHomes[],
  allow: Allowlist,
  real: RealPath,
  cache: ScanCache | null,
  /** The projects scans saw (`readKnownProjects`), for headers that name their directory by a digest. */
  projects: readonly string[] = [],
): Promise<{ perRoot: Map<string, number>; sessions: number; optedIn: number }> {
  const perRoot = new Map<string, number>([...allow.keys()].map((r) => [r, 0]));
  const { sessions } = await discoverAll(agents);
  let optedIn = 0;
  const candidates = cwdCandidates(allow, projects, real);
  for (const { reader, session } of sessions) {
    const known = await knownCwds(reader, session, cache, candidates);
    if (known === null || !decideOptIn(known.cwds, allow, real).allowed) continue;
    optedIn++;
    const first = normalisePath(known.cwds[0] ?? '');
    if (first === null) continue;
    const root = coveringRoot(first, allow, real);
    if (root !== null) perRoot.set(root, (perRoot.get(root) ?? 0) + 1);
  }
  return { perRoot, sessions: sessions.length, optedIn };
}
