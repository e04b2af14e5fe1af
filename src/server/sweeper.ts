// The serve process's freshness: a keep + index sweep at start, then on file changes in the agent
// homes (chokidar, debounced) and every interval where watching fails. Indexing and keeping run as
// two chains so a long keep never holds back searchability; each chain runs one sweep at a time and
// runs once more when changes arrived during a sweep. Stopping lets an in-flight sweep finish its
// current session (custody and the index publish whole or not at all) and releases every lock.
import { existsSync } from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';
import type { Catalog, KeepReport } from '../custody/index.js';
import { isInside } from '../custody/safe-fs.js';
import type { AgentHomes } from '../scan/scan.js';
import { sweep, type SweepReport } from '../search/sweep.js';
import type { SweepCaches } from '../search/sweep-caches.js';
import type { SweepSummary } from './api-types.js';

export interface SweeperOptions {
  indexRoot: string;
  /** The vendor homes (what is watched and kept) and what the index reads (kept roots appended). */
  vendorAgents: readonly AgentHomes[];
  readableAgents: () => AgentHomes[];
  /** The index sweep's discovery caches, held for the server's life (every sweep lists from them). */
  discovery?: SweepCaches;
  catalog: () => Promise<Catalog>;
  now: () => number;
  intervalMs: number;
  /** Events from the homes wake a sweep after this quiet time. */
  debounceMs?: number;
  watch?: boolean;
  log: (line: string) => void;
  /** After each sweep (both chains), e.g. to refresh the session list. */
  onSwept?: (summary: SweepSummary) => void;
}

type Trigger = SweepSummary['trigger'];

/**
 * Changes that are not a session being written: lock and temp files, and the side files SQLite
 * writes while any reader (ours included) has a database open — watching those would sweep forever.
 */
/** With working file events the interval sweep is a safety net this many intervals apart. */
const safetyFactor = 10;

/** A keep after file events waits for this long without events. */
const keepQuietMs = 3000;

const ignoredPath = /\.(keep-tmp|lock)$|-(wal|shm|journal)$|\/\.git\//;

/** A chain of runs of one task: never two at once, one more when asked during a run. */
class Chain {
  private running: Promise<void> | null = null;
  private pending: Trigger | null = null;

  constructor(private readonly task: (trigger: Trigger) => Promise<void>) {}

  kick(trigger: Trigger): Promise<void> {
    if (this.running !== null) {
      this.pending ??= trigger;
      return this.running;
    }
    this.running = (async () => {
      let next: Trigger | null = trigger;
      while (next !== null) {
        this.pending = null;
        await this.task(next);
        next = this.pending;
      }
      this.running = null;
    })();
    return this.running;
  }

  /** Resolves when no run is in flight. */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }
}

export class Sweeper {
  private stopped = false;
  private readonly abort = new AbortController();
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private keepLater: NodeJS.Timeout | undefined;
  private readonly index: Chain;
  private readonly keep: Chain;
  /** Paths changed since the last index sweep began: a change sweep reads only their agents. */
  private changed = new Set<string>();
  sweeping = 0;
  watching: 'events' | 'interval' | 'off' = 'off';
  last: SweepSummary | null = null;
  lastIndex: SweepReport | null = null;

  constructor(private readonly opts: SweeperOptions) {
    this.index = new Chain((t) => this.runIndex(t));
    this.keep = new Chain((t) => this.runKeep(t));
  }

  /** The first sweep (keep and index at once), then watching and the interval. */
  async start(): Promise<void> {
    const first = Promise.all([this.keep.kick('start'), this.index.kick('start')]);
    this.startWatching();
    this.scheduleInterval();
    await first;
  }

  /**
   * Starts both chains (or queues one more run of each). After file events the index sweeps at once
   * (searchability within a second) while the keep waits for a quiet moment: a kept copy needs no
   * sub-second freshness, and a keep over every home competes with the index for the CPU.
   */
  kick(trigger: Trigger): void {
    if (this.stopped) return;
    void this.index.kick(trigger);
    if (trigger !== 'change') {
      void this.keep.kick(trigger);
      return;
    }
    clearTimeout(this.keepLater);
    this.keepLater = setTimeout(() => void this.index.idle().then(() => this.keep.kick('change')), keepQuietMs);
    this.keepLater.unref();
  }

  /**
   * The interval sweep: every `intervalMs` where watching failed (or is off); while events arrive it
   * is only a safety net, so it runs `safetyFactor` times less often and leaves the CPU to requests.
   */
  private scheduleInterval(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const wait = this.watching === 'events' ? this.opts.intervalMs * safetyFactor : this.opts.intervalMs;
    this.timer = setTimeout(() => {
      this.kick('interval');
      this.scheduleInterval();
    }, wait);
    this.timer.unref();
  }

  private startWatching(): void {
    if (this.opts.watch === false) return;
    const paths = this.opts.vendorAgents.flatMap((a) => a.homes).filter((p) => existsSync(p));
    if (paths.length === 0) {
      this.watching = 'interval';
      return;
    }
    const debounceMs = this.opts.debounceMs ?? 25;
    const onChange = (path: string): void => {
      this.changed.add(path);
      clearTimeout(this.debounce);
      this.debounce = setTimeout(() => this.kick('change'), debounceMs);
    };
    try {
      const w = watch(paths, { ignoreInitial: true, persistent: false, ignored: (p) => ignoredPath.test(p) });
      w.on('add', onChange).on('change', onChange).on('unlink', onChange).on('addDir', onChange);
      w.on('error', (error) => {
        this.opts.log(
          `watch failed (${error instanceof Error ? error.message : String(error)}): sweeping every ${this.opts.intervalMs / 1000} s instead`,
        );
        this.watching = 'interval';
        this.scheduleInterval();
        void w.close();
      });
      this.watcher = w;
      this.watching = 'events';
    } catch (error) {
      this.opts.log(
        `watch failed (${error instanceof Error ? error.message : String(error)}): sweeping every ${this.opts.intervalMs / 1000} s instead`,
      );
      this.watching = 'interval';
    }
  }

  private finish(summary: SweepSummary): void {
    this.last = summary;
    this.opts.onSwept?.(summary);
  }

  private async runIndex(trigger: Trigger): Promise<void> {
    if (this.stopped) return;
    const t0 = this.opts.now();
    this.sweeping++;
    try {
      const changed = [...this.changed];
      this.changed.clear();
      const r = await sweep({
        root: this.opts.indexRoot,
        agents: this.agentsFor(trigger, changed),
        now: this.opts.now,
        shouldStop: () => this.stopped,
        collectGarbage: trigger === 'start',
        lockWaitMs: 5_000,
        ...(this.opts.discovery === undefined ? {} : { discovery: this.opts.discovery }),
      });
      this.lastIndex = r;
      const index = { sessions: r.sessions, extracted: r.extracted, resumed: r.resumed, unchanged: r.unchanged, failed: r.failed.length };
      const duration = this.opts.now() - t0;
      if (trigger !== 'change' || r.extracted + r.resumed + r.failed.length > 0)
        this.opts.log(
          `index sweep (${trigger}): ${r.sessions} sessions, ${r.extracted} read, ${r.resumed} appended, ${r.unchanged} unchanged, ${r.failed.length} failed in ${duration} ms`,
        );
      this.finish({
        at_ms: this.opts.now(),
        duration_ms: duration,
        trigger,
        keep: this.last?.keep ?? null,
        index,
        problems: r.failed.slice(0, 20).map((f) => `index: ${f.reason}`),
      });
    } catch (error) {
      this.opts.log(`index sweep (${trigger}) failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.sweeping--;
    }
  }

  /**
   * What an index sweep reads: every agent, or after file events only the agents whose vendor home
   * holds a changed path (every home of those agents, kept roots included, so nothing of theirs is
   * mistaken for gone; the other agents' entries are left as they are).
   */
  private agentsFor(trigger: Trigger, changed: readonly string[]): AgentHomes[] {
    const all = this.opts.readableAgents();
    if (trigger !== 'change' || changed.length === 0) return all;
    const hit = new Set(
      this.opts.vendorAgents.filter((a) => a.homes.some((h) => changed.some((p) => isInside(h, p) || p === h))).map((a) => a.reader.id),
    );
    return hit.size === 0 ? all : all.filter((a) => hit.has(a.reader.id));
  }

  private async runKeep(trigger: Trigger): Promise<void> {
    if (this.stopped) return;
    const t0 = this.opts.now();
    this.sweeping++;
    try {
      const catalog = await this.opts.catalog();
      const r: KeepReport = await catalog.keep({ signal: this.abort.signal, lockWaitMs: 5_000 });
      const t = r.totals;
      const keep = { sessions: t.sessions, copied: t.copied, extended: t.extended, refreshed: t.refreshed, failed: t.failed };
      const duration = this.opts.now() - t0;
      if (trigger !== 'change' || t.copied + t.extended + t.refreshed + t.failed > 0)
        this.opts.log(
          `keep sweep (${trigger}): ${t.sessions} sessions, ${t.copied} copied, ${t.extended} extended, ${t.refreshed} refreshed, ${t.failed} failed in ${duration} ms`,
        );
      this.finish({
        at_ms: this.opts.now(),
        duration_ms: duration,
        trigger,
        keep,
        index: this.last?.index ?? null,
        problems: r.sessions.flatMap((s) => s.failed.map((f) => `keep: ${f.message}`)).slice(0, 20),
      });
    } catch (error) {
      this.opts.log(`keep sweep (${trigger}) failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.sweeping--;
    }
  }

  /** Stops watching and the interval, asks running sweeps to stop at a safe point, and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    clearTimeout(this.timer);
    clearTimeout(this.debounce);
    clearTimeout(this.keepLater);
    await this.watcher?.close();
    await Promise.all([this.index.idle(), this.keep.idle()]);
  }
}
