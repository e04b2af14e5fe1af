// `agentlog keep`: copy sessions' whole trees into custody (<AGENTLOG_HOME>/kept/<installation>/)
// before the agents prune them. With no session id it keeps everything (the same as --all).
import { flag, flagValue, flagValues, UsageError, type ParsedArgs } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { selectAgents, type CliContext } from '../context.js';
import { progressBar } from '../progress.js';
import { Catalog, type KeepReport } from '../../custody/index.js';
import type { SessionKeepReport } from '../../custody/index.js';

function counts(r: { copied: number; extended: number; refreshed: number; skipped: number; failed: number }): string {
  return `${r.copied} copied, ${r.extended} extended, ${r.refreshed} refreshed, ${r.skipped} skipped, ${r.failed} failed`;
}

function sessionLine(s: SessionKeepReport): string {
  if (s.root === 'kept') return `${s.agent} ${s.session_id}: the agent already pruned it; the kept copy is the only one (nothing to do)`;
  return `${s.agent} ${s.session_id}: ${counts({ copied: s.copied.length, extended: s.extended.length, refreshed: s.refreshed.length, skipped: s.skipped.length, failed: s.failed.length })}`;
}

/** One row per agent home kept: what happened to its files, and where the copies are. */
function installationTable(report: KeepReport): string {
  const head = ['AGENT', 'SESSIONS', 'COPIED', 'EXTENDED', 'REFRESHED', 'SKIPPED', 'FAILED', 'KEPT IN'];
  const rows = report.installations.map((i) => {
    const mine = report.sessions.filter((s) => s.installation === i.key && s.agent === i.agent);
    const sum = (pick: (s: SessionKeepReport) => readonly unknown[]): string => String(mine.reduce((n, s) => n + pick(s).length, 0));
    return [
      i.agent,
      String(mine.length),
      sum((s) => s.copied),
      sum((s) => s.extended),
      sum((s) => s.refreshed),
      sum((s) => s.skipped),
      sum((s) => s.failed),
      i.root,
    ];
  });
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, c) => {
        if (c === cells.length - 1) return cell;
        const w = widths[c] as number;
        return c === 0 ? cell.padEnd(w) : cell.padStart(w);
      })
      .join('  ');
  return [head, ...rows].map(line).join('\n');
}

function printText(report: KeepReport, byId: boolean, ctx: CliContext): void {
  if (byId) for (const s of report.sessions) ctx.stdout.write(`${sessionLine(s)}\n`);
  const n = report.totals.sessions;
  ctx.stdout.write(`kept ${n} session${n === 1 ? '' : 's'}: ${counts(report.totals)}\n`);
  if (report.installations.length > 0) ctx.stdout.write(`${installationTable(report)}\n`);
  for (const s of report.sessions)
    for (const f of s.failed) ctx.stderr.write(`failed: ${s.agent} ${s.session_id} ${f.path}: ${f.message}\n`);
  for (const p of report.problems) ctx.stderr.write(`warning: ${p.path}: ${p.message}\n`);
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const ids = args.positionals;
  if (flag(args, 'all') && ids.length > 0) throw new UsageError('give --all or session ids, not both');
  const agents = selectAgents(await ctx.agents(), await parseAgentList(flagValues(args, 'agent')));
  const catalog = await Catalog.open({ stateRoot: ctx.stateRoot, agents, version: ctx.version, now: ctx.now });
  const installationName = flagValue(args, 'installation');
  if (installationName !== undefined && catalog.scopes.length !== 1) {
    const homes = catalog.scopes.map((s) => `${s.reader.id} ${s.home}`).join(', ');
    throw new UsageError(
      `--installation names one agent home, and this selection has ${catalog.scopes.length} (${homes || 'none'}); choose one with --agent`,
    );
  }
  const json = flag(args, 'json');
  const progress = progressBar(ctx.stderr, 'keeping', ids.length === 0);
  // A signal stops the keep after the sessions in flight (their copies are published whole).
  const signal = ctx.stopSignal();
  const stopped = (): number => {
    ctx.stderr.write('interrupted: what was kept so far is whole; run keep again to finish\n');
    return ctx.stopCode();
  };
  let report: KeepReport;
  try {
    report = await catalog.keep({
      ids: ids.length > 0 ? ids : undefined,
      installationName,
      signal,
      verify: flag(args, 'verify'),
      onProgress: (d, t) => progress.update(d, t),
    });
  } catch (error) {
    progress.done();
    if (signal.aborted) return stopped();
    throw error;
  }
  progress.done();
  if (json) ctx.stdout.write(`${JSON.stringify({ ...report, interrupted: signal.aborted }, null, 2)}\n`);
  else printText(report, ids.length > 0, ctx);
  if (signal.aborted) return stopped();
  return report.totals.failed > 0 ? 1 : 0;
}
