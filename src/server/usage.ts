// GET /api/usage?days=N[&tz=Area/City]: tokens and estimated cost per local day per agent, from the
// usage buckets the session list's scan holds: the rows `agentlog usage daily --by-agent` prints for
// the same days, each request counted on the day it was made.
import { dailyUsage } from '../usage/collect.js';
import { localDays } from '../usage/local-day.js';
import type { UsageSource } from '../usage/report.js';
import type { UsageBody, UsageRow } from './api-types.js';

/** Sessions with tokens on each day and agent (`day agent` → count). */
function sessionsPerDay(sources: readonly UsageSource[], timeZone: string, since: string, until: string): Map<string, number> {
  const dayOf = localDays(timeZone);
  const counts = new Map<string, number>();
  for (const s of sources) {
    const days = new Set<string>();
    for (const r of s.buckets.rows) {
      const day = dayOf(r[0]);
      if (day >= since && day <= until) days.add(day);
    }
    for (const day of days) counts.set(`${day} ${s.agent}`, (counts.get(`${day} ${s.agent}`) ?? 0) + 1);
  }
  return counts;
}

export function usageByDay(sources: readonly UsageSource[], days: number, nowMs: number, timeZone: string): UsageBody {
  const { since, until, report } = dailyUsage(sources, { now: nowMs, timeZone, days });
  const sessions = sessionsPerDay(sources, timeZone, since, until);
  const rows: UsageRow[] = report.rows.map((r) => {
    const agent = r.agent as UsageRow['agent'];
    return {
      day: r.period,
      agent,
      sessions: sessions.get(`${r.period} ${agent}`) ?? 0,
      input_tokens: r.inputTokens,
      output_tokens: r.outputTokens,
      cache_read_tokens: r.cacheReadTokens,
      cache_creation_tokens: r.cacheCreationTokens,
      reasoning_tokens: r.reasoningTokens,
      total_tokens: r.totalTokens,
      cost_usd: r.totalCost,
      unpriced_models: r.unpricedModels,
    };
  });
  return { ok: true, days, time_zone: timeZone, from: since, to: until, rows };
}
