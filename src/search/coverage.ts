// The coverage block of a search answer: the window searched, when the index was last swept, and per
// agent how many sessions of the window it holds (seed 000 "The query route" → Response).
import { readFile } from 'node:fs/promises';
import { dayMs } from '../fs/clock.js';
import { isNotFound } from '../fs/stat.js';
import type { AgentId } from '../record/types.js';
import type { Manifest } from './manifest.js';
import type { AgentCoverage, Coverage } from './response.js';
import { storePaths } from './store.js';

/** The earliest message time a window of `days` keeps (`0` days: everything). */
export function horizonOf(days: number, now: number): number {
  return days > 0 ? now - days * dayMs : Number.NEGATIVE_INFINITY;
}

/** When the last complete sweep finished, from `last_sweep.json` (null before the first). */
export async function lastSweepAt(root: string): Promise<number | null> {
  try {
    const v = JSON.parse(await readFile(storePaths(root).lastSweep, 'utf8')) as { at_ms?: unknown };
    return typeof v.at_ms === 'number' ? v.at_ms : null;
  } catch (error) {
    if (isNotFound(error) || error instanceof SyntaxError) return null;
    throw error;
  }
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
