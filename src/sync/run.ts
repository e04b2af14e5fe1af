// `agentlog sync`: every discovered session through the opt-in, the body pipeline and (unless a dry
// run) the hub, in batches so only a batch of bodies is ever held in memory.
import type { AgentHomes } from '../agents/types.js';
import type { ScanCache } from '../scan/scan-cache.js';
import { discoverAll } from '../scan/scan.js';
import type { Allowlist } from './allow/allow-file.js';
import type { RealPath } from './allow/opt-in.js';
import type { HubClient } from './hub/client.js';
import { buildNote } from './note.js';
import { cwdCandidates, prepareSession, type ReadySession } from './prepare.js';
import { emptyReport, type SessionReport, type SyncReport } from './report.js';
import { LedgerIndex, sendBatch } from './upload.js';

export interface SyncOptions {
  agents: AgentHomes[];
  allow: Allowlist;
  real: RealPath;
  homes: string[];
  cache: ScanCache | null;
  /** The projects scans saw (`readKnownProjects`): a Gemini header names its directory only by a digest. */
  projects?: readonly string[];
  /** Null for a dry run: nothing is sent, no token read. */
  hub: HubClient | null;
  batchSize?: number;
  /** Sessions read at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

function dryRunReport(s: ReadySession): SessionReport {
  const note =
    s.record.repo === ''
      ? null
      : buildNote(s.record, { agentName: s.reader.displayName, project: s.project, sourceId: null, transcriptUrl: null });
  return {
    ...s.report,
    status: 'would_upload',
    note: note === null ? null : { slug: note.slug, project: s.project, status: 'would_write' },
  };
}

function count(report: SyncReport, s: SessionReport): void {
  report.sessions.push(s);
  if (s.status === 'uploaded') report.uploaded++;
  else if (s.status === 'unchanged') report.unchanged++;
  else if (s.status === 'skipped') report.skipped++;
  if (s.note !== undefined && s.note !== null) report.notes[s.note.status]++;
}

export async function runSync(opts: SyncOptions): Promise<SyncReport> {
  const report = emptyReport(opts.hub === null);
  const found = await discoverAll(opts.agents);
  for (const p of found.problems) {
    if (p.kind === 'unparsed') report.unparsed++;
    else report.unreadable++;
  }
  report.scanned = found.sessions.length;
  const batchSize = opts.batchSize ?? 32;
  const ledger = opts.hub === null ? null : new LedgerIndex(opts.hub);
  let batch: ReadySession[] = [];
  const flush = async (): Promise<void> => {
    const sending = batch;
    batch = [];
    if (sending.length === 0) return;
    if (opts.hub === null || ledger === null) for (const s of sending) count(report, dryRunReport(s));
    else for (const s of await sendBatch(sending, { hub: opts.hub, ledger })) count(report, s);
  };

  let next = 0;
  let done = 0;
  // Sessions are read a few at a time but take their place in the batch in discovery order, so the
  // report's order (and every byte sent) does not depend on which read finished first.
  const slots = Math.max(1, opts.concurrency ?? 2);
  const pending: Promise<Awaited<ReturnType<typeof prepareSession>>>[] = [];
  const ctx = {
    allow: opts.allow,
    real: opts.real,
    homes: opts.homes,
    cache: opts.cache,
    candidates: cwdCandidates(opts.allow, opts.projects ?? [], opts.real),
  };
  const start = (): void => {
    const item = found.sessions[next++];
    if (item !== undefined) pending.push(prepareSession(item.reader, item.session, ctx));
  };
  for (let i = 0; i < slots; i++) start();
  while (pending.length > 0) {
    if (opts.signal?.aborted === true) break;
    const prepared = await pending.shift()!;
    start();
    opts.onProgress?.(++done, found.sessions.length);
    if (prepared.kind === 'unreadable' || prepared.kind === 'unparsed') {
      if (prepared.kind === 'unreadable') report.unreadable++;
      else report.unparsed++;
    } else {
      report.redacted += prepared.redactions;
      if (prepared.kind === 'ready') {
        batch.push(prepared);
        if (batch.length >= batchSize) await flush();
      } else count(report, prepared.report);
    }
  }
  // Reads still under way when a stop was asked are let finish, and dropped.
  await Promise.allSettled(pending);
  await flush();
  return report;
}
