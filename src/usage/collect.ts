// Usage straight from the scan cache: a scan (warm: no log is read) and its per-session buckets,
// folded into a report. `dailyUsage` is what the local server's `/api/usage` serves.
import type { FileProblem } from '../agents/types.js';
import { dayMs } from '../fs/clock.js';
import { type AgentHomes, scan } from '../scan/scan.js';
import { localDays } from './local-day.js';
import { buildReport, type ReportKind, type UsageReport, type UsageRow, type UsageSource } from './report.js';

export interface UsageOptions {
  agents: AgentHomes[];
  /** The state root holding the scan cache; null reads every log. */
  stateRoot: string | null;
  userHome: string | null;
  /** The scan cache's reader tag (the package version): the same one `scan` uses shares its cache. */
  readerVersion: string;
  onProgress?: (done: number, total: number) => void;
}

export interface CollectedUsage {
  sources: UsageSource[];
  /** Sessions and files that could not be read, and problems with the scan cache itself. */
  problems: FileProblem[];
}

/** Every session's usage buckets, from the scan cache where the files are unchanged. */
export async function collectUsage(opts: UsageOptions): Promise<CollectedUsage> {
  const report = await scan({
    agents: opts.agents,
    stateRoot: opts.stateRoot,
    userHome: opts.userHome,
    readerVersion: opts.readerVersion,
    ...(opts.onProgress !== undefined ? { onProgress: opts.onProgress } : {}),
  });
  const sources: UsageSource[] = [];
  for (const row of report.sessions) {
    const buckets = report.usage.get(`${row.agent}:${row.session_id}`);
    if (buckets === undefined) continue;
    sources.push({ agent: row.agent, sessionId: row.session_id, lastActivity: row.ended_at ?? row.started_at, buckets });
  }
  return { sources, problems: [...report.state_problems, ...report.unreadable] };
}

export interface ReportOptions extends UsageOptions {
  kind: ReportKind;
  timeZone: string;
  since?: string;
  until?: string;
  byAgent: boolean;
}

/** The usage report the CLI prints and the MCP tool returns. */
export async function usageReport(opts: ReportOptions): Promise<UsageReport & { problems: FileProblem[] }> {
  const dayOf = localDays(opts.timeZone);
  const { sources, problems } = await collectUsage(opts);
  const report = buildReport(
    sources,
    {
      kind: opts.kind,
      timeZone: opts.timeZone,
      byAgent: opts.byAgent,
      ...(opts.since !== undefined ? { since: opts.since } : {}),
      ...(opts.until !== undefined ? { until: opts.until } : {}),
    },
    dayOf,
  );
  return { ...report, problems };
}

/** The local day `days - 1` days before today in `timeZone` (so `days` days including today). */
export function firstDayOfLast(days: number, now: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(now - (days - 1) * dayMs),
  );
}

/**
 * Per-day, per-agent usage since a local day (inclusive), for the dashboard's usage chart:
 * `dailyUsage({ agents, stateRoot, now, timeZone, since: firstDayOfLast(30, now(), tz), … })`.
 */
export async function dailyUsage(opts: UsageOptions & { now: () => number; timeZone: string; since?: string }): Promise<UsageRow[]> {
  const since = opts.since ?? firstDayOfLast(30, opts.now(), opts.timeZone);
  const report = await usageReport({ ...opts, kind: 'daily', byAgent: true, since });
  return report.rows;
}
