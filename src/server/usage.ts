// GET /api/usage?days=N: tokens per day per agent, from the scan rows' totals (subagents included)
// bucketed by the session's start day (UTC). One small module so the exact per-day buckets of
// `agentlog usage` can replace it without touching the route.
import { dayMs } from '../fs/clock.js';
import type { SessionRow } from '../scan/session-row.js';
import type { UsageBody, UsageRow } from './api-types.js';

export function usageByDay(rows: readonly SessionRow[], days: number, nowMs: number): UsageBody {
  const to = new Date(nowMs).toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * dayMs).toISOString().slice(0, 10);
  const buckets = new Map<string, UsageRow>();
  for (const r of rows) {
    if (r.started_at === null) continue;
    const ms = Date.parse(r.started_at);
    if (Number.isNaN(ms)) continue;
    const day = new Date(ms).toISOString().slice(0, 10);
    if (day < from || day > to) continue;
    const key = `${day} ${r.agent}`;
    let b = buckets.get(key);
    if (b === undefined) {
      b = {
        day,
        agent: r.agent,
        sessions: 0,
        input_tokens: 0,
        output_tokens: 0,
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
        reasoning_tokens: 0,
        total_tokens: 0,
      };
      buckets.set(key, b);
    }
    const t = r.totals_with_subagents;
    b.sessions++;
    b.input_tokens += t.input_tokens;
    b.output_tokens += t.output_tokens;
    b.cache_read_tokens += t.cache_read_tokens;
    b.cache_creation_tokens += t.cache_creation_tokens;
    b.reasoning_tokens += t.reasoning_tokens;
    b.total_tokens += t.input_tokens + t.output_tokens + t.cache_read_tokens + t.cache_creation_tokens + t.reasoning_tokens;
  }
  const out = [...buckets.values()].sort((a, b) => (a.day !== b.day ? (a.day < b.day ? -1 : 1) : a.agent < b.agent ? -1 : 1));
  return { ok: true, days, from, to, rows: out };
}
