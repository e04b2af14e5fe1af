// What the MCP tools share: the homes and state root, the clock, and the throttled refreshes of
// the message index and of the session catalog (both in agentlog's state root, never the agents').
import type { FileProblem } from '../agents/types.js';
import { applySessionNames } from '../names/session-names.js';
import { type AgentHomes, type ScanOptions, scan } from '../scan/scan.js';
import type { SessionRow } from '../scan/session-row.js';
import { ShardCache } from '../search/shard-cache.js';
import { storeRoot } from '../search/store.js';
import { type SweepReport, sweep } from '../search/sweep.js';
import { Throttled } from './freshness.js';

export interface McpDeps {
  agents: AgentHomes[];
  /** The homes of agents that keep logs inside projects (Aider), learnt by each scan: see `ScanOptions`. */
  learnedHomes?: ScanOptions['learnedHomes'];
  stateRoot: string;
  userHome: string | null;
  /** The scan cache's reader tag (the package version). */
  readerVersion: string;
  /** The zone whose days `session_usage` counts in. */
  timeZone: string;
  now: () => number;
  /** At most one index sweep and one catalog scan per this many ms (default 10 s). */
  refreshMs?: number;
  /** Where to say what went wrong in the background (stderr: stdout carries only protocol). */
  log?: (line: string) => void;
}

export interface Catalog {
  rows: SessionRow[];
  byKey: Map<string, SessionRow>;
  problems: FileProblem[];
}

export class ToolContext {
  readonly root: string;
  readonly cache: ShardCache;
  readonly index: Throttled<SweepReport | null>;
  readonly catalog: Throttled<Catalog>;

  constructor(readonly deps: McpDeps) {
    this.root = storeRoot(deps.stateRoot);
    this.cache = new ShardCache(this.root);
    const every = deps.refreshMs ?? 10_000;
    const report = (what: string) => (error: unknown) =>
      deps.log?.(`agentlog mcp: the ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    this.index = new Throttled(() => this.sweepOnce(), deps.now, every, report('index sweep'));
    this.catalog = new Throttled(() => this.scanOnce(), deps.now, every, report('session scan'));
  }

  private async sweepOnce(): Promise<SweepReport | null> {
    try {
      // Another agentlog may be indexing: wait briefly, then search what is already there.
      return await sweep({ root: this.root, agents: this.deps.agents, now: this.deps.now, lockWaitMs: 2_000 });
    } catch (error) {
      this.deps.log?.(
        `agentlog mcp: the index sweep failed, searching what is indexed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return null;
    }
  }

  private async scanOnce(): Promise<Catalog> {
    const report = await scan({
      agents: this.deps.agents,
      stateRoot: this.deps.stateRoot,
      userHome: this.deps.userHome,
      readerVersion: this.deps.readerVersion,
      ...(this.deps.learnedHomes === undefined ? {} : { learnedHomes: this.deps.learnedHomes }),
    });
    for (const warning of await applySessionNames(report.sessions, this.deps.stateRoot)) this.deps.log?.(`agentlog mcp: ${warning}`);
    const byKey = new Map(report.sessions.map((r) => [`${r.agent}:${r.session_id}`, r]));
    return { rows: report.sessions, byKey, problems: [...report.state_problems, ...report.unreadable] };
  }
}
