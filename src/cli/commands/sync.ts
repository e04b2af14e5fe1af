// `agentlog sync [--dry-run] [--agent A] [--json]`: every opted-in session, redacted and capped, to
// the team hub as a source with its note (seed 003). Exit 1 when any session failed.
import { parseAgentList } from '../agent-flag.js';
import { flag, flagValues, UsageError, type ParsedArgs } from '../args.js';
import { selectAgents, type CliContext } from '../context.js';
import { progressBar } from '../progress.js';
import { readKnownProjects } from '../../scan/known-projects.js';
import { ScanCache } from '../../scan/scan-cache.js';
import { readAllowlist } from '../../sync/allow/allow-file.js';
import { SyncError } from '../../sync/allow/errors.js';
import { HubClient } from '../../sync/hub/client.js';
import { readLogin } from '../../sync/hub/login-file.js';
import { mergeSent, readLastSync, writeLastSync } from '../../sync/last-sync.js';
import type { SessionReport, SyncReport } from '../../sync/report.js';
import { runSync } from '../../sync/run.js';
import { cachedRealPath, homeForms, syncPaths } from '../../sync/settings.js';

function line(s: SessionReport): string {
  const bits = [
    `${s.agent} ${s.session_id.slice(0, 8)}${s.session_id.length > 8 ? '…' : ''}`,
    s.repo === null || s.repo === '' ? '(no repo)' : s.repo,
  ];
  if (s.detail !== null) bits.push(s.detail, `${s.turns} turn(s), ${s.tool_calls} tool call(s)`);
  bits.push(s.reason === undefined ? s.status : `${s.status}: ${s.reason}`);
  if (s.note !== undefined && s.note !== null) bits.push(`note ${s.note.status}${s.note.error === undefined ? '' : ` (${s.note.error})`}`);
  return bits.join(' · ');
}

function summary(r: SyncReport, failed: number): string {
  const parts = r.dry_run
    ? [`${r.sessions.filter((s) => s.status === 'would_upload').length} would be uploaded`]
    : [`${r.uploaded} uploaded`, `${r.unchanged} already in the ledger`];
  parts.push(`${r.skipped} skipped`);
  if (failed > 0) parts.push(`${failed} failed`);
  if (r.unreadable > 0) parts.push(`${r.unreadable} unreadable`);
  if (r.unparsed > 0) parts.push(`${r.unparsed} not a session`);
  let text = parts.join(', ');
  if (r.redacted > 0) text += `; ${r.redacted} secret(s) redacted on this machine first`;
  return `${text}\n${r.dry_run ? 'Dry run: nothing was sent.\n' : ''}`;
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError('sync takes no positional arguments');
  const json = flag(args, 'json');
  const dryRun = flag(args, 'dry-run');
  const paths = syncPaths(ctx.lookup, ctx.stateRoot);
  // The opt-in first: a corrupt file stops the run before anything is read.
  const allow = await readAllowlist(paths.allowFile);
  let hub: HubClient | null = null;
  let hubUrl = '';
  if (!dryRun) {
    const login = await readLogin(paths.loginFile);
    if (login === null)
      throw new SyncError(
        'HubLoginMissing',
        'usage',
        'not signed in to a hub: run agentlog login --hub URL --token-stdin (or sync --dry-run)',
      );
    hub = new HubClient({ url: login.hub, token: login.token, userAgent: `agentlog/${ctx.version}` });
    hubUrl = login.hub;
  }
  const real = cachedRealPath();
  const progress = progressBar(ctx.stderr, dryRun ? 'sync (dry run)' : 'sync', !json);
  const report = await runSync({
    agents: selectAgents(await ctx.agents(), await parseAgentList(flagValues(args, 'agent'))),
    allow,
    real,
    homes: homeForms(ctx.userHome, real),
    cache: await ScanCache.open(ctx.stateRoot, ctx.version),
    projects: readKnownProjects(ctx.stateRoot),
    hub,
    onProgress: (done, total) => progress.update(done, total),
    signal: ctx.stopSignal(),
  });
  progress.done();
  const failed = report.sessions.filter((s) => s.status === 'failed').length;
  const notesFailed = report.notes.failed;
  if (!dryRun) {
    try {
      const at = new Date(ctx.now()).toISOString();
      writeLastSync(paths.lastSync, {
        at,
        hub: hubUrl,
        uploaded: report.uploaded,
        unchanged: report.unchanged,
        skipped: report.skipped,
        failed,
        sessions: mergeSent(await readLastSync(paths.lastSync), at, report.sessions),
      });
    } catch (error) {
      ctx.stderr.write(
        `warning: could not record this sync for agentlog status (${error instanceof Error ? error.message : String(error)})\n`,
      );
    }
  }
  if (json) ctx.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    for (const s of report.sessions) ctx.stdout.write(`${line(s)}\n`);
    ctx.stdout.write(summary(report, failed));
  }
  if (ctx.stopSignal().aborted) return ctx.stopCode();
  return failed > 0 || notesFailed > 0 ? 1 : 0;
}
