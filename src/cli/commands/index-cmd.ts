// `agentlog index`: brings the message-search index up to date (one sweep), or keeps it so with
// --watch (a sweep every 30 s and on file changes) until interrupted.
import { stat } from 'node:fs/promises';
import { flag, intFlag, type ParsedArgs } from '../args.js';
import type { CliContext } from '../context.js';
import { progressBar } from '../progress.js';
import { thousands } from '../render/format.js';
import { defaultIntervalMs } from '../../search/index-interval.js';
import { runIndexLoop } from '../../search/index-loop.js';
import { SweepCaches } from '../../search/sweep-caches.js';
import { storePaths, storeRoot } from '../../search/store.js';
import { sweep, type SweepOptions, type SweepReport } from '../../search/sweep.js';

function mib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${thousands(Math.round(bytes / 1024))} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** One line per sweep, and what failed (the sweep goes on past a session that fails). */
function summary(r: SweepReport): string {
  const parts = [`${r.sessions} sessions`, `${r.extracted} read`, `${r.resumed} appended`, `${r.unchanged} unchanged`];
  if (r.outside_window > 0) parts.push(`${r.outside_window} older than ${r.window_days} days`);
  if (r.gone > 0) parts.push(`${r.gone} gone`);
  if (r.expired > 0) parts.push(`${r.expired} expired`);
  return `indexed ${parts.join(', ')}; ${mib(r.bytes_read)} read in ${(r.duration_ms / 1000).toFixed(2)} s`;
}

/** `problems`: also what could not be read (a watch prints them after its first sweep only, not every 30 s). */
function notes(r: SweepReport, ctx: CliContext, problems = true): void {
  for (const f of r.failed.slice(0, 20)) ctx.stderr.write(`  failed ${f.session}: ${f.reason}\n`);
  if (r.failed.length > 20) ctx.stderr.write(`  … and ${r.failed.length - 20} more (--json lists them)\n`);
  for (const p of problems ? r.problems.slice(0, 20) : []) ctx.stderr.write(`  problem ${p.path}: ${p.reason}\n`);
  if (problems && r.problems.length > 20) ctx.stderr.write(`  … and ${r.problems.length - 20} more problems (--json lists them)\n`);
  if (r.quarantined_manifest !== null)
    ctx.stderr.write(`  the index manifest was corrupt: moved to ${r.quarantined_manifest} and rebuilt\n`);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const json = flag(args, 'json');
  const watchMode = flag(args, 'watch');
  const interval = intFlag(args, 'interval', 1, 86_400);
  const windowDays = intFlag(args, 'window-days', 0, 36_500);
  const root = storeRoot(ctx.stateRoot);
  const firstBuild = !(await exists(storePaths(root).manifest));
  const progress = progressBar(ctx.stderr, 'indexing', firstBuild && !json);
  const base: SweepOptions = {
    root,
    agents: await ctx.agents(),
    now: () => ctx.now(),
    // One set for every sweep of this run (--watch sweeps again and again): held, not re-read.
    discovery: new SweepCaches(ctx.stateRoot, ctx.version, () => ctx.now()),
    onProgress: (d, t) => progress.update(d, t),
    onLockWait: (h) => {
      if (!json) ctx.stderr.write(`waiting for another agentlog index${h !== null ? ` (pid ${h.pid})` : ''} to finish…\n`);
    },
    ...(windowDays !== undefined ? { windowDays } : {}),
  };
  if (!watchMode) {
    // A signal stops the sweep at the next session (what is done is published) or lock wait.
    const signal = ctx.stopSignal();
    let report: SweepReport;
    try {
      report = await sweep({ ...base, collectGarbage: true, signal, shouldStop: () => signal.aborted });
    } catch (error) {
      progress.done();
      if (signal.aborted) return ctx.stopCode();
      throw error;
    }
    progress.done();
    if (json) ctx.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      ctx.stdout.write(`${summary(report)}\n`);
      notes(report, ctx);
    }
    return signal.aborted ? ctx.stopCode() : 0;
  }
  const watchPaths = (await ctx.agents()).flatMap((a) => a.homes);
  const result = await runIndexLoop({
    sweep: base,
    intervalMs: (interval ?? defaultIntervalMs / 1000) * 1000,
    watchPaths,
    stop: ctx.interrupted(),
    onSweep: (r, n) => {
      if (n === 1) progress.done();
      if (json) return;
      // After the first sweep, only sweeps that did something are worth a line.
      if (n === 1 || r.extracted + r.resumed + r.expired + r.failed.length > 0) ctx.stdout.write(`${summary(r)}\n`);
      notes(r, ctx, n === 1);
    },
    onError: (error) => ctx.stderr.write(`agentlog index: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  progress.done();
  if (json) ctx.stdout.write(`${JSON.stringify({ sweeps: result.sweeps, last: result.last }, null, 2)}\n`);
  return 0;
}
