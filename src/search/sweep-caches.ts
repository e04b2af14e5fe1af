// The sweep's discovery caches: one per agent, so a sweep that reads only some agents (serve's
// sweep after file events in one home) keeps every other agent's remembered folders instead of
// dropping them on save; and held across sweeps by a long-lived process (serve, `index --watch`),
// so a sweep there does not re-read megabytes of cache file. Each cache still proves every folder
// and file unchanged by its stat before serving it (discovery-cache.ts), so a cache held in memory
// while another process swept is never trusted past a change, only less often hit.
import type { FileProblem } from '../agents/types.js';
import type { AgentId } from '../record/types.js';
import { DiscoveryCache, discoveryCachePath } from '../scan/discovery-cache.js';

export class SweepCaches {
  private readonly open = new Map<AgentId, Promise<DiscoveryCache>>();
  /** How many of each cache's problems were reported already (a held cache keeps its list). */
  private readonly reported = new Map<AgentId, number>();

  /** `readerVersion`: the package version (another version's cache files are rebuilt). */
  constructor(
    private readonly stateRoot: string,
    private readonly readerVersion: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The file one agent's cache lives in. */
  pathOf(agent: AgentId): string {
    return discoveryCachePath(this.stateRoot, `sweep-${agent}`);
  }

  /** One agent's cache, loaded on first use and then held. */
  for(agent: AgentId): Promise<DiscoveryCache> {
    let cache = this.open.get(agent);
    if (cache === undefined) {
      cache = DiscoveryCache.open(this.pathOf(agent), this.readerVersion, this.now);
      this.open.set(agent, cache);
    }
    return cache;
  }

  /**
   * Saves the caches of the agents this sweep discovered (each keeps what its discovery looked at)
   * and returns the problems not reported before: a cache file moved aside as corrupt, a failed save.
   */
  async save(agents: readonly AgentId[]): Promise<FileProblem[]> {
    const problems: FileProblem[] = [];
    for (const agent of agents) {
      const cache = await this.open.get(agent);
      if (cache === undefined) continue;
      await cache.save();
      const from = this.reported.get(agent) ?? 0;
      problems.push(...cache.problems.slice(from));
      this.reported.set(agent, cache.problems.length);
    }
    return problems;
  }
}
