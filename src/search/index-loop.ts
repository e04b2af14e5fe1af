// Keeps the index fresh: a sweep every interval (30 s by default), sooner when a watched home
// changes (file-system events, debounced), until asked to stop. Between sweeps the writer lock is
// free, so another `agentlog index` can run.
import { watch, type FSWatcher } from 'node:fs';
import { sweep, type SweepOptions, type SweepReport } from './sweep.js';
import { defaultIntervalMs } from './index-interval.js';

/** Orphan collection runs on the first sweep and then every this many sweeps (hourly at 30 s). */
const garbageEvery = 120;
/** A burst of file events becomes one sweep this long after the last event. */
const debounceMs = 500;
/** The shortest pause between two sweeps. */
const minGapMs = 1000;

export interface LoopOptions {
  sweep: Omit<SweepOptions, 'shouldStop' | 'collectGarbage'>;
  intervalMs?: number;
  /** Folders to watch for changes (agent homes); empty disables watching. */
  watchPaths?: readonly string[];
  /** Resolves when the loop should stop (a signal). */
  stop: Promise<unknown>;
  onSweep?: (report: SweepReport, n: number) => void;
  onError?: (error: unknown) => void;
}

/** Runs sweeps until `stop` resolves; returns how many ran and the last report. */
export async function runIndexLoop(opts: LoopOptions): Promise<{ sweeps: number; last: SweepReport | null }> {
  let stopped = false;
  let wake: (() => void) | null = null;
  let changed = false;
  let debounce: NodeJS.Timeout | undefined;
  void opts.stop.then(() => {
    stopped = true;
    wake?.();
  });
  const watchers: FSWatcher[] = [];
  const onEvent = (): void => {
    changed = true;
    clearTimeout(debounce);
    debounce = setTimeout(() => wake?.(), debounceMs);
  };
  for (const path of opts.watchPaths ?? []) {
    try {
      const w = watch(path, { recursive: true, persistent: false }, onEvent);
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // A missing home, or a platform without recursive watching: the interval still sweeps.
    }
  }
  let sweeps = 0;
  let last: SweepReport | null = null;
  try {
    while (!stopped) {
      changed = false;
      try {
        last = await sweep({ ...opts.sweep, shouldStop: () => stopped, collectGarbage: sweeps % garbageEvery === 0 });
        sweeps++;
        opts.onSweep?.(last, sweeps);
      } catch (error) {
        opts.onError?.(error);
      }
      if (stopped) break;
      // Files changed during the sweep: go again soon, but never back to back.
      const wait = changed ? minGapMs : (opts.intervalMs ?? defaultIntervalMs);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    clearTimeout(debounce);
    for (const w of watchers) w.close();
  }
  return { sweeps, last };
}
