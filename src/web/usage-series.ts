// The usage chart's data: one column per day, one series per agent, in tokens or estimated dollars.
import type { UsageBody } from '../server/api-types.js';
import { compactCount } from './format.js';

export type UsageMeasure = 'tokens' | 'cost';

/** True when the server priced at least one bucket (GET /api/usage rows with a `cost_usd` above zero). */
export function hasCost(body: UsageBody): boolean {
  return body.rows.some((r) => r.cost_usd > 0);
}

/** "$1.23", "$0.004", "$1.2k": estimated dollars as the chart's axis and legend show them. */
export function dollars(n: number): string {
  if (n >= 1000) return `$${compactCount(n)}`;
  if (n >= 1 || n === 0) return `$${n.toFixed(2)}`;
  return `$${n.toPrecision(2)}`;
}

/** The chart's columns: one x per day from `from` to `to`, one series per agent (tokens or cost). */
export function usageSeries(body: UsageBody, measure: UsageMeasure = 'tokens'): { days: string[]; agents: string[]; data: number[][] } {
  const days: string[] = [];
  for (let t = Date.parse(`${body.from}T00:00:00Z`); t <= Date.parse(`${body.to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  const agents = [...new Set(body.rows.map((r) => r.agent))].sort();
  const index = new Map(days.map((d, i) => [d, i]));
  const data = agents.map(() => days.map(() => 0));
  for (const r of body.rows) {
    const i = index.get(r.day);
    const a = agents.indexOf(r.agent);
    if (i !== undefined && a !== -1) (data[a] as number[])[i] = measure === 'cost' ? r.cost_usd : r.total_tokens;
  }
  return { days, agents, data };
}

/** `theme` only re-draws the chart in the new colours (uPlot paints on a canvas, not with CSS). */
