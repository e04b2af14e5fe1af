// Folds sessions' usage buckets into a report by day, month, session or model, in ccusage's field
// names (`period`, `inputTokens`, …, `modelBreakdowns`) so scripts written for it keep working.
import type { AgentId } from '../record/types.js';
import type { BucketRow, UsageBuckets } from './buckets.js';
import { conventions } from './conventions.js';
import { type DayOf, localDays, undatedDay } from './local-day.js';
import { costAt, priceOf, pricingTable, unpricedReason } from './pricing.js';

export const reportKinds = ['daily', 'monthly', 'session', 'model'] as const;
export type ReportKind = (typeof reportKinds)[number];

/** One session's usage as the scan cache holds it. */
export interface UsageSource {
  agent: AgentId;
  sessionId: string;
  lastActivity: string | null;
  buckets: UsageBuckets;
}

export interface UsageQuery {
  kind: ReportKind;
  timeZone: string;
  /** First local day included (YYYY-MM-DD), inclusive. */
  since?: string;
  /** Last local day included (YYYY-MM-DD), inclusive. */
  until?: string;
  /** One row per period and agent instead of one per period. */
  byAgent: boolean;
}

/** `log`: the agent wrote the cost into its log; `estimate`: priced from the table; `unpriced`: neither. */
export type CostSource = 'log' | 'estimate' | 'mixed' | 'unpriced';

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  reasoningTokens: number;
  totalTokens: number;
}

export interface ModelBreakdown extends TokenCounts {
  modelName: string;
  /** USD; null when nothing of this model could be priced. */
  cost: number | null;
  costSource: CostSource;
}

export interface UsageRow extends TokenCounts {
  period: string;
  agent?: AgentId;
  /** USD over the priced models; `unpricedModels` names what it leaves out. */
  totalCost: number;
  modelsUsed: string[];
  unpricedModels: string[];
  modelBreakdowns: ModelBreakdown[];
  lastActivity?: string | null;
}

export interface UsageTotals extends TokenCounts {
  totalCost: number;
  unpricedModels: string[];
}

export interface UsageReport {
  kind: ReportKind;
  rows: UsageRow[];
  totals: UsageTotals;
  timeZone: string;
  /** Sessions whose days are estimates: the reader records no per-turn usage, so totals were shared over turns. */
  estimatedDaySplit: number;
  /** The agents those sessions belong to. */
  estimatedAgents: AgentId[];
}

// Where a model's cost came from, as bits: a report folds every bucket row, and a Set per model
// (and its adds) was a share of that folding (measured).
const fromLog = 1;
const fromEstimate = 2;
const fromNowhere = 4;

/** One model's sums within a row; fields, not arrays, so a bucket row adds without indexing. */
interface ModelAcc {
  input: number;
  output: number;
  write: number;
  read: number;
  reasoning: number;
  logged: number;
  estimated: number;
  /** `fromLog | fromEstimate | fromNowhere` bits: which kinds of cost its rows had. */
  sources: number;
}

interface RowAcc {
  period: string;
  agent: AgentId | undefined;
  lastActivity: string | null;
  models: Map<string, ModelAcc>;
}

function counts(t: readonly number[]): TokenCounts {
  const [input = 0, output = 0, write = 0, read = 0, reasoning = 0] = t;
  return {
    inputTokens: input,
    outputTokens: output,
    cacheCreationTokens: write,
    cacheReadTokens: read,
    reasoningTokens: reasoning,
    totalTokens: input + output + write + read,
  };
}

function costSource(sources: number): CostSource {
  if (sources === fromLog) return 'log';
  if (sources === fromEstimate) return 'estimate';
  // Two kinds or more always include the log or the table: only one bit means unpriced.
  return sources === fromNowhere ? 'unpriced' : 'mixed';
}

function finishRow(acc: RowAcc, kind: ReportKind): UsageRow {
  const sum = [0, 0, 0, 0, 0];
  let cost = 0;
  const unpriced: string[] = [];
  const breakdowns: ModelBreakdown[] = [];
  for (const [model, m] of acc.models) {
    const tokens = [m.input, m.output, m.write, m.read, m.reasoning];
    for (let i = 0; i < 5; i++) sum[i] = (sum[i] as number) + (tokens[i] as number);
    const priced = (m.sources & (fromLog | fromEstimate)) !== 0;
    if ((m.sources & fromNowhere) !== 0) unpriced.push(model);
    const c = m.logged + m.estimated;
    cost += c;
    breakdowns.push({ modelName: model, ...counts(tokens), cost: priced ? c : null, costSource: costSource(m.sources) });
  }
  breakdowns.sort((a, b) => (b.cost ?? -1) - (a.cost ?? -1) || b.totalTokens - a.totalTokens);
  const row: UsageRow = {
    period: acc.period,
    ...(acc.agent !== undefined ? { agent: acc.agent } : {}),
    ...counts(sum),
    totalCost: cost,
    modelsUsed: [...acc.models.keys()].sort(),
    unpricedModels: unpriced.sort(),
    modelBreakdowns: breakdowns,
  };
  if (kind === 'session') row.lastActivity = acc.lastActivity;
  return row;
}

function order(kind: ReportKind): (a: UsageRow, b: UsageRow) => number {
  const byText = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  if (kind === 'model') return (a, b) => b.totalCost - a.totalCost || b.totalTokens - a.totalTokens || byText(a.period, b.period);
  if (kind === 'session')
    return (a, b) =>
      byText(a.lastActivity ?? '', b.lastActivity ?? '') || byText(a.period, b.period) || byText(a.agent ?? '', b.agent ?? '');
  // Undated tokens come last, after every real day.
  return (a, b) =>
    a.period === b.period
      ? byText(a.agent ?? '', b.agent ?? '')
      : a.period === undatedDay
        ? 1
        : b.period === undatedDay
          ? -1
          : byText(a.period, b.period);
}

function periodOf(kind: ReportKind, day: string, source: UsageSource, model: string): string {
  if (kind === 'daily') return day;
  if (kind === 'monthly') return day === undatedDay ? day : day.slice(0, 7);
  if (kind === 'session') return source.sessionId;
  return model;
}

/** Builds the report from every session's buckets. Pure: the caller supplies the sessions. */
export function buildReport(sources: readonly UsageSource[], query: UsageQuery, dayOf: DayOf = localDays(query.timeZone)): UsageReport {
  const groups = new Map<string, RowAcc>();
  const { kind, since, until } = query;
  const bounded = since !== undefined || until !== undefined;
  let estimated = 0;
  const estimatedAgents = new Set<AgentId>();
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i] as UsageSource;
    const conv = conventions[source.agent];
    const agent = query.byAgent || kind === 'session' ? source.agent : undefined;
    const { models, rows } = source.buckets;
    let counted = false;
    // A session's rows come sorted by slot: consecutive rows mostly share a day, so its group.
    let slot = Number.NaN;
    let day = '';
    let inRange = true;
    let g: RowAcc | undefined;
    // Indexed loops and reads, not for…of and destructuring: this runs once per command, mostly
    // before the optimiser, and the interpreter walks an iterator for those (measured: half the fold).
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k] as BucketRow;
      if (r[0] !== slot) {
        slot = r[0];
        day = dayOf(slot);
        inRange = !bounded || (day !== undatedDay && (since === undefined || day >= since) && (until === undefined || day <= until));
      }
      if (!inRange) continue;
      counted = true;
      const model = models[r[1]] ?? '<unknown>';
      const period = periodOf(kind, day, source, model);
      if (g === undefined || g.period !== period) {
        const key = `${period}\u0000${agent ?? ''}`;
        g = groups.get(key);
        if (g === undefined) {
          g = { period, agent, lastActivity: null, models: new Map() };
          groups.set(key, g);
        }
      }
      if (kind === 'session') g.lastActivity = source.lastActivity;
      let m = g.models.get(model);
      if (m === undefined) {
        m = { input: 0, output: 0, write: 0, read: 0, reasoning: 0, logged: 0, estimated: 0, sources: 0 };
        g.models.set(model, m);
      }
      const input = r[2];
      const output = r[3];
      const write = r[4];
      const read = r[5];
      const reasoning = r[6];
      const logged = r[7];
      m.input += input;
      m.output += output;
      m.write += write;
      m.read += read;
      m.reasoning += reasoning;
      if (logged >= 0) {
        m.logged += logged;
        m.sources |= fromLog;
        continue;
      }
      const entry = priceOf(model);
      if (entry === null) {
        m.sources |= fromNowhere;
        continue;
      }
      m.estimated += costAt(
        entry,
        r[8] === 1,
        conv.inputIncludesCacheRead ? Math.max(0, input - read) : input,
        output,
        write,
        read,
        conv.reasoningApart ? reasoning : 0,
      );
      m.sources |= fromEstimate;
    }
    if (counted && source.buckets.basis === 'split') {
      estimated++;
      estimatedAgents.add(source.agent);
    }
  }
  const rows = [...groups.values()].map((g) => finishRow(g, query.kind)).sort(order(query.kind));
  const sum = [0, 0, 0, 0, 0];
  let cost = 0;
  const unpriced = new Set<string>();
  for (const row of rows) {
    sum[0] = (sum[0] as number) + row.inputTokens;
    sum[1] = (sum[1] as number) + row.outputTokens;
    sum[2] = (sum[2] as number) + row.cacheCreationTokens;
    sum[3] = (sum[3] as number) + row.cacheReadTokens;
    sum[4] = (sum[4] as number) + row.reasoningTokens;
    cost += row.totalCost;
    for (const m of row.unpricedModels) unpriced.add(m);
  }
  return {
    kind: query.kind,
    rows,
    totals: { ...counts(sum), totalCost: cost, unpricedModels: [...unpriced].sort() },
    timeZone: query.timeZone,
    estimatedDaySplit: estimated,
    estimatedAgents: [...estimatedAgents].sort(),
  };
}

/** The report as one JSON document, keyed like ccusage's (`daily`, `monthly`, `session`, `model`). */
export function reportJson(report: UsageReport): Record<string, unknown> {
  return {
    [report.kind]: report.rows,
    totals: report.totals,
    timezone: report.timeZone,
    pricing: {
      table: pricingTable.name,
      taken: pricingTable.taken,
      unpriced: report.totals.unpricedModels,
      unpriced_reasons: Object.fromEntries(report.totals.unpricedModels.map((m) => [m, unpricedReason(m)])),
    },
    estimated_day_split_sessions: report.estimatedDaySplit,
    estimated_day_split_agents: report.estimatedAgents,
  };
}
