// `agentlog usage [daily|monthly|session|model]`: tokens and estimated cost from the scan cache,
// every agent at once; --json in ccusage's field names.
import { flag, flagValue, flagValues, type ParsedArgs, UsageError } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { type CliContext, selectAgents } from '../context.js';
import { progressBar } from '../progress.js';
import { ansiStyle, plainStyle, thousands } from '../render/format.js';
import { usageReport } from '../../usage/collect.js';
import { isDay } from '../../usage/local-day.js';
import { pricingTable, unpricedReason } from '../../usage/pricing.js';
import { reportJson, reportKinds, type ReportKind, type UsageReport, type UsageRow } from '../../usage/report.js';

const money = (usd: number): string => `$${usd.toFixed(2)}`;

function cells(row: UsageRow, byAgent: boolean): string[] {
  const cost = `${money(row.totalCost)}${row.unpricedModels.length > 0 ? '*' : ''}`;
  return [
    row.period,
    ...(byAgent ? [row.agent ?? ''] : []),
    row.modelsUsed.join(', '),
    thousands(row.inputTokens),
    thousands(row.outputTokens),
    thousands(row.cacheCreationTokens),
    thousands(row.cacheReadTokens),
    thousands(row.totalTokens),
    cost,
  ];
}

function table(report: UsageReport, byAgent: boolean, ctx: CliContext): string {
  const style = ctx.color ? ansiStyle : plainStyle;
  const first = report.kind === 'daily' ? 'DAY' : report.kind === 'monthly' ? 'MONTH' : report.kind === 'session' ? 'SESSION' : 'MODEL';
  const showAgent = byAgent || report.kind === 'session';
  const head = [first, ...(showAgent ? ['AGENT'] : []), 'MODELS', 'INPUT', 'OUTPUT', 'CACHE WRITE', 'CACHE READ', 'TOTAL', 'COST'];
  const body = report.rows.map((r) => cells(r, showAgent));
  const totals = cells(
    { ...report.totals, period: 'Total', modelsUsed: [], modelBreakdowns: [], unpricedModels: report.totals.unpricedModels },
    showAgent,
  );
  const numeric = (i: number): boolean => i >= head.length - 6;
  const widths = head.map((h, i) => {
    const w = Math.max(h.length, totals[i]?.length ?? 0, ...body.map((b) => (b[i] as string).length));
    return head[i] === 'MODELS' ? Math.min(w, 40) : w;
  });
  const fmt = (row: string[]): string =>
    row
      .map((c, i) => {
        const w = widths[i] as number;
        const cell = c.length > w ? `${c.slice(0, w - 1)}…` : c;
        return numeric(i) ? cell.padStart(w) : cell.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return [style.bold(fmt(head)), ...body.map(fmt), style.dim(rule), style.bold(fmt(totals))].join('\n');
}

/** The zone whose days count: --timezone, else TZ, else the system's. */
export function timeZoneOf(args: ParsedArgs, ctx: CliContext): string {
  return flagValue(args, 'timezone') ?? ctx.lookup.env('TZ')?.replace(/^:/, '') ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Whether `zone` is the one this process's Date keeps local time in: the TZ it runs with, exactly
 * (a context's own env may differ from the process's in tests), so the days need no Intl data.
 */
function isHostZone(zone: string): boolean {
  return process.env.TZ === zone;
}

function dayFlag(args: ParsedArgs, name: string): string | undefined {
  const v = flagValue(args, name);
  if (v !== undefined && !isDay(v)) throw new UsageError(`--${name} takes a day written YYYY-MM-DD, not "${v}"`);
  return v;
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const kind = args.positionals[0] ?? 'daily';
  if (args.positionals.length > 1 || !(reportKinds as readonly string[]).includes(kind))
    throw new UsageError(`usage takes one report: ${reportKinds.join(', ')} (default daily)`);
  const since = dayFlag(args, 'since');
  const until = dayFlag(args, 'until');
  if (since !== undefined && until !== undefined && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
  const byAgent = flag(args, 'by-agent');
  const json = flag(args, 'json');
  const progress = progressBar(ctx.stderr, 'reading usage', true);
  const timeZone = timeZoneOf(args, ctx);
  const report = await usageReport({
    agents: selectAgents(await ctx.agents(), await parseAgentList(flagValues(args, 'agent'))),
    stateRoot: ctx.stateRoot,
    userHome: ctx.userHome,
    readerVersion: ctx.version,
    onProgress: (d, t) => progress.update(d, t),
    ...(ctx.projectHomes === undefined ? {} : { learnedHomes: ctx.projectHomes }),
    kind: kind as ReportKind,
    timeZone,
    hostZone: isHostZone(timeZone),
    byAgent,
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
  });
  progress.done();
  for (const p of report.problems) ctx.stderr.write(`warning: ${p.kind}: ${p.path}: ${p.reason}\n`);
  if (json) {
    ctx.stdout.write(`${JSON.stringify(reportJson(report), null, 2)}\n`);
    return 0;
  }
  if (report.rows.length === 0) {
    ctx.stdout.write('no token usage found for these agents and days\n');
    return 0;
  }
  ctx.stdout.write(`${table(report, byAgent, ctx)}\n`);
  const notes: string[] = [`costs are estimates from agentlog's price table of ${pricingTable.taken}, or the cost the agent logged`];
  if (report.totals.unpricedModels.length > 0)
    notes.push(`* unpriced, not counted in the cost: ${report.totals.unpricedModels.map((m) => `${m} (${unpricedReason(m)})`).join('; ')}`);
  if (report.estimatedDaySplit > 0)
    notes.push(
      `days are estimates for ${report.estimatedDaySplit} session${report.estimatedDaySplit === 1 ? '' : 's'} of ${report.estimatedAgents.join(', ')}: ` +
        "their logs state no tokens per request with its time, so each session's totals (exact) are shared over its turns' days",
    );
  ctx.stderr.write(`${notes.join('\n')}\n`);
  return 0;
}
