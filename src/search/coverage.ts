// The coverage block of a search answer: the window searched, when the index was last swept, and per
// agent how many sessions of the window it holds (seed 000 "The query route" → Response).
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { dayMs } from '../fs/clock.js';
import { isNotFound } from '../fs/errors.js';
import type { AgentId } from '../record/types.js';
import type { Manifest } from './manifest.js';
import type { AgentCoverage, Coverage } from './response.js';
import { storePaths } from './store.js';

/** The earliest message time a window of `days` keeps (`0` days: everything). */
export function horizonOf(days: number, now: number): number {
  return days > 0 ? now - days * dayMs : Number.NEGATIVE_INFINITY;
}

/** What `last-sweep.json` holds: when the last complete sweep finished, how long it took, what it published. */
export const lastSweepSchema = z.object({
  at_ms: z.number().finite(),
  duration_ms: z.number().finite(),
  snapshot: z.string(),
});

/** `last-sweep.json` as read: absent, valid, or corrupt (what a sweep moves aside and reports). */
export async function readLastSweep(
  root: string,
): Promise<{ state: 'missing' } | { state: 'ok'; value: z.infer<typeof lastSweepSchema> } | { state: 'corrupt'; reason: string }> {
  let text: string;
  try {
    text = await readFile(storePaths(root).lastSweep, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return { state: 'missing' };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: 'corrupt', reason: 'not valid JSON' };
  }
  const r = lastSweepSchema.safeParse(json);
  if (!r.success)
    return { state: 'corrupt', reason: r.error.issues.map((i) => `${i.path.join('.') || 'the file'}: ${i.message}`).join('; ') };
  return { state: 'ok', value: r.data };
}

/** When the last complete sweep finished (null before the first, or when the file is corrupt: the next sweep reports it). */
export async function lastSweepAt(root: string): Promise<number | null> {
  const r = await readLastSweep(root);
  return r.state === 'ok' ? r.value.at_ms : null;
}

export function coverageOf(m: Manifest | null, horizon: number, storeHorizon: number, lastSweep: number | null, now: number): Coverage {
  const agents: Partial<Record<AgentId, AgentCoverage>> = {};
  for (const e of Object.values(m?.sessions ?? {})) {
    if (e.records === 0 || e.newest_ts_ms < horizon) continue;
    const c = (agents[e.agent] ??= { sessions: 0, oldest_ts_ms: 0, newest_ts_ms: 0, source_gone: 0 });
    c.sessions++;
    if (e.oldest_ts_ms > 0 && (c.oldest_ts_ms === 0 || e.oldest_ts_ms < c.oldest_ts_ms)) c.oldest_ts_ms = e.oldest_ts_ms;
    if (e.newest_ts_ms > c.newest_ts_ms) c.newest_ts_ms = e.newest_ts_ms;
    if (e.source_gone === true) c.source_gone++;
    if (e.coverage_notes !== undefined) c.notes = { ...c.notes, ...e.coverage_notes };
  }
  const back = Math.max(horizon, storeHorizon);
  return {
    indexed_back_to_ms: Number.isFinite(back) ? back : 0,
    last_sweep_ms: lastSweep,
    stale_by_ms: lastSweep === null ? null : Math.max(0, now - lastSweep),
    agents,
  };
}
