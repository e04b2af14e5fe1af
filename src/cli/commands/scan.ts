// `agentlog scan`: every session the agents left, newest first.
import { flag, flagValues, type ParsedArgs } from '../args.js';
import { parseAgentList } from '../agent-flag.js';
import { selectAgents, type CliContext } from '../context.js';
import { progressBar } from '../progress.js';
import { scan, type ScanReport } from '../../scan/scan.js';
import type { SessionRow } from '../../scan/session-row.js';
import { applySessionNames } from '../../names/session-names.js';
import { overlayPath } from '../../names/overlay.js';
import { shortTime, thousands, totalTokens } from '../render/format.js';
import { ansiStyle, plainStyle } from '../render/format.js';
import { escapeControls } from '../terminal-safe.js';

/** Something besides the logs that scan could not use (today: the names overlay). */
interface Problem {
  path: string;
  reason: string;
}

function scanJson(report: ScanReport, problems: readonly Problem[]): unknown {
  return {
    roots: report.roots,
    sessions: report.sessions,
    unreadable: report.unreadable,
    unparsed: report.unparsed,
    bad_lines: report.bad_lines,
    problems,
    state_problems: report.state_problems,
  };
}

function table(rows: readonly SessionRow[], ctx: CliContext): string {
  const style = ctx.color ? ansiStyle : plainStyle;
  const head = ['AGENT', 'SESSION', 'REPO', 'BRANCH', 'STARTED', 'ENDED', 'TURNS', 'TOOLS', 'TOKENS', 'SUB', 'FILE'];
  // Cells are measured as they will print (control characters escaped), so columns stay aligned.
  const body = rows.map((r) =>
    [
      r.agent,
      r.name !== null ? `${r.session_id.slice(0, 8)} ${r.name}` : r.session_id,
      r.repo || '—',
      r.branch ?? '—',
      shortTime(r.started_at),
      shortTime(r.ended_at),
      String(r.turns),
      String(r.tool_calls),
      thousands(totalTokens(r.totals_with_subagents)),
      String(r.subagents),
      r.file,
    ].map((cell) => escapeControls(cell, false)),
  );
  const widths = head.map((h, i) => Math.min(48, Math.max(h.length, ...body.map((b) => (b[i] as string).length))));
  const fmt = (cells: string[]): string =>
    cells
      .map((c, i) => {
        const w = widths[i] as number;
        const cell = c.length > w && i !== cells.length - 1 ? `${c.slice(0, w - 1)}…` : c;
        return i === cells.length - 1 ? cell : cell.padEnd(w);
      })
      .join('  ');
  return [style.bold(fmt(head)), ...body.map(fmt)].join('\n');
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const agents = selectAgents(await ctx.agents(), await parseAgentList(flagValues(args, 'agent')));
  const json = flag(args, 'json');
  const progress = progressBar(ctx.stderr, 'scanning', true);
  const report = await scan({
    agents,
    stateRoot: ctx.stateRoot,
    userHome: ctx.userHome,
    readerVersion: ctx.version,
    onProgress: (d, t) => progress.update(d, t),
    ...(ctx.projectHomes === undefined ? {} : { learnedHomes: ctx.projectHomes }),
  });
  progress.done();
  const problems = (await applySessionNames(report.sessions, ctx.stateRoot)).map((w) => ({
    path: overlayPath(ctx.stateRoot),
    reason: w,
  }));
  for (const p of problems) ctx.stderr.write(`warning: ${p.reason}\n`);
  for (const p of report.state_problems) ctx.stderr.write(`warning: ${p.path}: ${p.reason}\n`);
  if (json) {
    ctx.stdout.write(`${JSON.stringify(scanJson(report, problems), null, 2)}\n`);
    return 0;
  }
  const looked = report.roots.map((r) => `${r.path} (${r.sessions})`).join(', ');
  if (report.sessions.length === 0) ctx.stdout.write(`no sessions found; looked in ${looked || 'no agent homes'}\n`);
  else ctx.stdout.write(`${table(report.sessions, ctx)}\n`);
  const bad = report.bad_lines.reduce((n, b) => n + b.count, 0);
  const notes: string[] = [];
  if (report.unreadable.length > 0) notes.push(`${report.unreadable.length} unreadable`);
  if (report.unparsed.length > 0) notes.push(`${report.unparsed.length} unparsed`);
  if (bad > 0) notes.push(`${bad} unparseable lines in ${report.bad_lines.length} files`);
  ctx.stderr.write(`${report.sessions.length} sessions${notes.length > 0 ? ` (${notes.join(', ')}; --json lists them)` : ''}\n`);
  return 0;
}
