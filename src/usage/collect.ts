// Usage straight from the scan cache: a scan (warm: no log is read) and its per-session buckets,
// folded into a report. `dailyUsage` is what the local server's `/api/usage` serves, from the
// buckets its session list already holds: the same rows as `usage daily --by-agent --since …`.
import type { FileProblem } from '../agents/types.js';
import { dayMs } from '../fs/clock.js';
import { type AgentHomes, type ScanOptions, type ScanReport, scan } from '../scan/scan.js';
import { localDays } from './local-day.js';
import { buildReport, type ReportKind, type UsageReport, type UsageSource } from './report.js';

export interface UsageOptions {
  agents: AgentHomes[];
  /** The state root holding the scan cache; null reads every log. */
  stateRoot: string | null;
  userHome: string | null;
  /** The scan cache's reader tag (the package version): the same one `scan` uses shares its cache. */
  readerVersion: string;
  onProgress?: (done: number, total: number) => void;
  /** The homes of agents that keep logs inside projects (Aider), learnt by the same scan: see `ScanOptions`. */
  learnedHomes?: ScanOptions['learnedHomes'];
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
    // A cold run counts what the next one counts: the projects this scan sees are looked in at once.
    ...(opts.learnedHomes !== undefined ? { learnedHomes: opts.learnedHomes } : {}),
  });
  return { sources: usageSources(report.sessions, report.usage), problems: [...report.state_problems, ...report.unreadable] };
}

/** Each listed session's buckets (`usage` is keyed `agent:session_id`, as a scan report holds it). */
export function usageSources(rows: ScanReport['sessions'], usage: ScanReport['usage']): UsageSource[] {
  const sources: UsageSource[] = [];
  for (const row of rows) {
    const buckets = usage.get(`${row.agent}:${row.session_id}`);
    if (buckets === undefined) continue;
    sources.push({ agent: row.agent, sessionId: row.session_id, lastActivity: row.ended_at ?? row.started_at, buckets });
  }
  return sources;
}

export interface ReportOptions extends UsageOptions {
  kind: ReportKind;
  timeZone: string;
  /** `timeZone` is the zone this process keeps local time in (see `localDays`). */
  hostZone?: boolean;
  since?: string;
  until?: string;
  byAgent: boolean;
}

/** The usage report the CLI prints and the MCP tool returns. */
export async function usageReport(opts: ReportOptions): Promise<UsageReport & { problems: FileProblem[] }> {
  const dayOf = localDays(opts.timeZone, opts.hostZone);
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

/** The local day (YYYY-MM-DD) `ms` falls on in `timeZone`. */
export function localDayOf(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

/** The local day `days - 1` days before today in `timeZone` (so `days` days including today). */
export function firstDayOfLast(days: number, now: number, timeZone: string): string {
  return localDayOf(now - (days - 1) * dayMs, timeZone);
}

export interface DailyWindow {
  /** First and last local day covered, inclusive. */
  since: string;
  until: string;
  report: UsageReport;
}

/**
 * Per-day, per-agent usage over the last `days` local days (today included), for the dashboard's
 * chart: the rows `usage daily --by-agent --since <since> --until <until>` prints for the same home.
 */
export function dailyUsage(sources: readonly UsageSource[], opts: { now: number; timeZone: string; days: number }): DailyWindow {
  const dayOf = localDays(opts.timeZone);
  const since = firstDayOfLast(opts.days, opts.now, opts.timeZone);
  const until = localDayOf(opts.now, opts.timeZone);
  const report = buildReport(sources, { kind: 'daily', timeZone: opts.timeZone, byAgent: true, since, until }, dayOf);
  return { since, until, report };
}
