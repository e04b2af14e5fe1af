// Folds sessions' usage buckets into a report by day, month, session or model, in ccusage's field
// names (`period`, `inputTokens`, …, `modelBreakdowns`) so scripts written for it keep working.
import type { AgentId } from '../record/types.js';
import type { UsageBuckets } from './buckets.js';
import { conventions } from './conventions.js';
import { type DayOf, localDays, undatedDay } from './local-day.js';
import { estimateCost, pricingTable, unpricedReason } from './pricing.js';

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

interface ModelAcc {
  tokens: [number, number, number, number, number];
  logged: number;
  estimated: number;
  sources: Set<'log' | 'estimate' | 'unpriced'>;
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

function costSource(sources: Set<string>): CostSource {
  if (sources.size === 1) return [...sources][0] as CostSource;
  return sources.has('log') || sources.has('estimate') ? 'mixed' : 'unpriced';
}

function finishRow(acc: RowAcc, kind: ReportKind): UsageRow {
  const sum = [0, 0, 0, 0, 0];
  let cost = 0;
  const unpriced: string[] = [];
  const breakdowns: ModelBreakdown[] = [];
  for (const [model, m] of acc.models) {
    for (let i = 0; i < 5; i++) sum[i] = (sum[i] as number) + (m.tokens[i] as number);
    const priced = m.sources.has('log') || m.sources.has('estimate');
    if (m.sources.has('unpriced')) unpriced.push(model);
    const c = m.logged + m.estimated;
    cost += c;
    breakdowns.push({ modelName: model, ...counts(m.tokens), cost: priced ? c : null, costSource: costSource(m.sources) });
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
  const bounded = query.since !== undefined || query.until !== undefined;
  let estimated = 0;
  const estimatedAgents = new Set<AgentId>();
  for (const source of sources) {
    const conv = conventions[source.agent];
    const agent = query.byAgent || query.kind === 'session' ? source.agent : undefined;
    let counted = false;
    // A session's rows come sorted by slot: consecutive rows mostly share a day, so its group.
    let slot = Number.NaN;
    let day = '';
    let g: RowAcc | undefined;
    for (const r of source.buckets.rows) {
      if (r[0] !== slot) {
        slot = r[0];
        day = dayOf(slot);
      }
      if (bounded) {
        if (day === undatedDay) continue;
        if (query.since !== undefined && day < query.since) continue;
        if (query.until !== undefined && day > query.until) continue;
      }
      counted = true;
      const model = source.buckets.models[r[1]] ?? '<unknown>';
      const period = periodOf(query.kind, day, source, model);
      if (g === undefined || g.period !== period) {
        const key = `${period}\u0000${agent ?? ''}`;
        g = groups.get(key);
        if (g === undefined) {
          g = { period, agent, lastActivity: null, models: new Map() };
          groups.set(key, g);
        }
      }
      if (query.kind === 'session') g.lastActivity = source.lastActivity;
      let m = g.models.get(model);
      if (m === undefined) {
        m = { tokens: [0, 0, 0, 0, 0], logged: 0, estimated: 0, sources: new Set() };
        g.models.set(model, m);
      }
      for (let i = 0; i < 5; i++) m.tokens[i] = (m.tokens[i] as number) + (r[i + 2] as number);
      if (r[7] >= 0) {
        m.logged += r[7];
        m.sources.add('log');
        continue;
      }
      const cacheRead = r[5];
      const cost = estimateCost(model, {
        input: conv.inputIncludesCacheRead ? Math.max(0, r[2] - cacheRead) : r[2],
        output: r[3],
        cacheWrite: r[4],
        cacheRead,
        reasoningApart: conv.reasoningApart ? r[6] : 0,
        long: r[8] === 1,
      });
      if (cost === null) m.sources.add('unpriced');
      else {
        m.estimated += cost;
        m.sources.add('estimate');
      }
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
