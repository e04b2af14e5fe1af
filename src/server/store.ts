// The handles every route reads through, opened once per process: session sources (custody), the
// session list (scan), the index view and shard cache (search), the search gate, the log, and the
// sweeper when one runs. Tests open one over temporary homes.
import { withKeptRoots, vendorHomes } from '../custody/index.js';
import type { AgentHomes, ScanOptions } from '../scan/scan.js';
import { ShardCache } from '../search/shard-cache.js';
import { storeRoot } from '../search/store.js';
import { IndexView } from './index-facts.js';
import { SearchGate } from './search-gate.js';
import type { ServeLog } from './serve-log.js';
import { SessionList } from './session-list.js';
import { SessionSources } from './session-source.js';
import type { Sweeper } from './sweeper.js';

export interface StoreOptions {
  stateRoot: string;
  userHome: string;
  version: string;
  /** Readers with their homes (kept roots in the list are ignored: the store adds the current ones). */
  agents: readonly AgentHomes[];
  /** The homes of agents that keep logs inside projects (Aider), learnt by each scan: see `ScanOptions`. */
  learnedHomes?: ScanOptions['learnedHomes'];
  now: () => number;
  log: ServeLog;
}

export interface ServerStore {
  readonly stateRoot: string;
  readonly version: string;
  readonly startedAt: number;
  readonly now: () => number;
  readonly vendorAgents: AgentHomes[];
  /** Vendor homes then the kept roots that exist now (a keep may have added some since start). */
  readableAgents(): AgentHomes[];
  readonly sources: SessionSources;
  readonly list: SessionList;
  readonly index: IndexView;
  readonly searchRoot: string;
  readonly shards: ShardCache;
  readonly gate: SearchGate;
  readonly log: ServeLog;
  sweeper: Sweeper | null;
}

export function openStore(opts: StoreOptions): ServerStore {
  const vendorAgents = vendorHomes(opts.agents, [opts.stateRoot]);
  const readableAgents = (): AgentHomes[] => withKeptRoots(vendorAgents, opts.stateRoot);
  const searchRoot = storeRoot(opts.stateRoot);
  const index = new IndexView(searchRoot);
  const sources = new SessionSources({ stateRoot: opts.stateRoot, agents: vendorAgents, version: opts.version, now: opts.now });
  const list = new SessionList({
    stateRoot: opts.stateRoot,
    userHome: opts.userHome,
    version: opts.version,
    agents: readableAgents,
    ...(opts.learnedHomes === undefined ? {} : { learnedHomes: opts.learnedHomes }),
    index,
    now: opts.now,
  });
  return {
    stateRoot: opts.stateRoot,
    version: opts.version,
    startedAt: opts.now(),
    now: opts.now,
    vendorAgents,
    readableAgents,
    sources,
    list,
    index,
    searchRoot,
    shards: new ShardCache(searchRoot, undefined, opts.now),
    gate: new SearchGate(),
    log: opts.log,
    sweeper: null,
  };
}
