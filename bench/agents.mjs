// `node bench/agents.mjs <home> [bigfile]` (the "agents" section of `npm run bench`): for each of the
// seven agents, the raw baseline over that agent's files beside a cold `agentlog scan --agent <id>
// --json` (fresh AGENTLOG_HOME each run): throughput, ratio, peak RSS. Then checks what the scan
// listed against what the generator wrote: every session exactly once, no unreadable or unparsed
// file, no bad line, and the token totals the logs state. A failed check is a reader bug: it is
// printed loudly and makes the script exit 1, never hidden.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentFiles, agentIds, baselineAgent, fileCount, statsKey } from './agent-baseline.mjs';
import { agentEnv, sumTotals, timed } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
/** Runs per figure; the best is kept (the machine may be shared). */
const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
/** `BENCH_AGENTS=cursor,crush` measures only these agents (all by default). */
const only = process.env.BENCH_AGENTS?.split(',').filter((a) => a !== '');

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '-');

function env(home, state) {
  // Gemini CLI's home is `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`: pin it inside the bench home.
  return { ...agentEnv(home, state), GEMINI_CLI_HOME: home };
}

/**
 * A cold scan of one agent: a fresh state root each run, the best wall time of `repeat`. An agent
 * found only in known projects (Aider) gets the state an earlier scan of the other agents leaves:
 * the list of projects sessions ran in, and nothing else.
 */
function coldScan(home, agent, projects) {
  let best;
  for (let i = 0; i < repeat; i++) {
    const state = mkdtempSync(join(tmpdir(), 'agentlog-bench-'));
    try {
      if (projects !== undefined) {
        mkdirSync(join(state, 'cache'), { recursive: true });
        writeFileSync(join(state, 'cache', 'known-projects.json'), JSON.stringify({ version: 1, projects }));
      }
      const run = timed(cli, ['scan', '--agent', agent, '--json'], env(home, state));
      if (run.status !== 0) throw new Error(`agentlog scan --agent ${agent} exited ${run.status}: ${run.stderr.trim().split('\n').at(-1)}`);
      if (best === undefined || run.seconds < best.seconds) best = run;
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  }
  return { ...best, report: JSON.parse(best.stdout) };
}

function bestBaseline(files) {
  let best;
  for (let i = 0; i < repeat; i++) {
    const b = baselineAgent(files);
    if (best === undefined || b.seconds < best.seconds) best = b;
  }
  return best;
}

/** What the scan got wrong for one agent, as sentences (empty when nothing). */
function check(agent, report, stats) {
  const problems = [];
  const listed = report.sessions.filter((s) => s.agent === agent);
  const others = report.sessions.length - listed.length;
  if (others > 0) problems.push(`${others} sessions of other agents listed under --agent ${agent}`);
  for (const p of report.unreadable) problems.push(`unreadable: ${p.path} (${p.kind}: ${p.reason})`);
  for (const p of report.unparsed) problems.push(`unparsed: ${p.path} (${p.reason})`);
  for (const b of report.bad_lines) problems.push(`${b.count} bad lines in ${b.path}`);
  if (stats === undefined) return { problems, listed: listed.length, expected: null };
  const count = new Map();
  for (const s of listed) count.set(s.session_id, (count.get(s.session_id) ?? 0) + 1);
  const expected = new Set(stats.ids ?? []);
  if (stats.ids !== undefined) {
    const missing = [...expected].filter((id) => !count.has(id));
    const twice = [...count].filter(([, n]) => n > 1).map(([id, n]) => `${id} ×${n}`);
    const extra = [...count.keys()].filter((id) => !expected.has(id));
    if (missing.length > 0) problems.push(`${missing.length} generated sessions not listed, e.g. ${missing.slice(0, 3).join(', ')}`);
    if (twice.length > 0) problems.push(`${twice.length} sessions listed more than once, e.g. ${twice.slice(0, 3).join(', ')}`);
    if (extra.length > 0)
      problems.push(`${extra.length} listed sessions the generator did not write as sessions, e.g. ${extra.slice(0, 3).join(', ')}`);
  } else if (listed.length !== stats.sessions) {
    problems.push(`${listed.length} sessions listed, ${stats.sessions} generated`);
  }
  if (stats.tokens !== undefined) {
    const got = sumTotals(listed);
    const want = stats.tokens;
    // (The generators never rewind or undo a turn that launched a subagent: readers drop such a
    // child with its tokens by design, so that case is not a mismatch to flag here.)
    if (JSON.stringify(got) !== JSON.stringify(want))
      problems.push(`token totals differ from the logs: scan ${JSON.stringify(got)}, written ${JSON.stringify(want)}`);
  }
  return { problems, listed: listed.length, expected: stats.ids?.length ?? stats.sessions };
}

function main() {
  const home = process.argv[2];
  if (home === undefined || !existsSync(home)) {
    console.error('usage: node bench/agents.mjs <bench home> [big file]');
    process.exit(2);
  }
  if (!existsSync(cli)) {
    console.error(`bench: ${cli} is missing; run npm run build first`);
    process.exit(2);
  }
  const marker = join(home, 'generated.json');
  const generated = existsSync(marker) ? JSON.parse(readFileSync(marker, 'utf8')).stats : {};

  // What a scan costs before it reads a byte: node, the CLI and discovery of an empty home. Measured
  // for each agent just before its scans (best of the same number of runs), not once for the whole
  // table: this machine's speed drifts over a minute, and one early figure shifted every net ratio.
  const empty = mkdtempSync(join(tmpdir(), 'agentlog-bench-empty-'));
  process.on('exit', () => rmSync(empty, { recursive: true, force: true }));
  console.log(`  baseline: one core, JSONL read in 4 MiB chunks + split + JSON.parse per line; JSON documents read + JSON.parse;`);
  console.log(`  plain sidecars read; SQLite: SELECT * of each session and message table + JSON.parse of its JSON column.`);
  console.log(
    `  scan: node dist/cli/main.js scan --agent <id> --json, fresh AGENTLOG_HOME, best of ${repeat}; start: the same scan of an empty home, just before;`,
  );
  console.log(
    `  "net" subtracts that start. agentlog reads on its own thread plus (cores - 1, at most 7) workers once an agent has >= 40 MiB of files.`,
  );
  const head = [
    'agent',
    'files',
    'MiB',
    'base MiB/s',
    'start s',
    'scan s',
    'scan MiB/s',
    'ratio',
    'net MiB/s',
    'net ratio',
    'RSS MiB',
    'sessions',
  ];
  const widths = [12, 7, 8, 11, 8, 8, 11, 6, 10, 10, 8, 12];
  const line = (cells) =>
    console.log(`  ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' ')}`);
  line(head);
  const failures = [];
  const totals = { bytes: 0, base: 0, scan: 0 };
  for (const agent of agentIds) {
    if (only !== undefined && !only.includes(agent)) continue;
    const files = agentFiles(home, agent);
    if (fileCount(files) === 0) {
      line([agent, 0, '-', '-', '-', '-', '-', '-', '-', '-', '-', 'none']);
      continue;
    }
    const base = bestBaseline(files);
    const startup = coldScan(empty, agent).seconds;
    const scan = coldScan(home, agent, generated[statsKey(agent)]?.projects);
    const mib = base.bytes / 1048576;
    const scanMibps = mib / scan.seconds;
    const net = scan.seconds - startup;
    const netMibps = net > 0 ? mib / net : Number.POSITIVE_INFINITY;
    const verdict = check(agent, scan.report, generated[statsKey(agent)]);
    totals.bytes += base.bytes;
    totals.base += base.seconds;
    totals.scan += scan.seconds;
    const sessions = verdict.expected === null ? `${verdict.listed}` : `${verdict.listed}/${verdict.expected}`;
    line([
      agent,
      fileCount(files),
      fmt(mib),
      fmt(base.mibps),
      fmt(startup, 2),
      fmt(scan.seconds, 2),
      fmt(scanMibps),
      fmt(scanMibps / base.mibps, 2),
      fmt(netMibps),
      fmt(netMibps / base.mibps, 2),
      fmt(scan.rssMiB),
      sessions + (verdict.problems.length > 0 ? ' !!' : ' ok'),
    ]);
    if (verdict.problems.length > 0) failures.push({ agent, problems: verdict.problems });
  }
  const allMib = totals.bytes / 1048576;
  line([
    'all (sum)',
    '',
    fmt(allMib),
    fmt(allMib / totals.base),
    '',
    fmt(totals.scan, 2),
    fmt(allMib / totals.scan),
    fmt(totals.base / totals.scan, 2),
    '',
    '',
    '',
    '',
  ]);
  if (failures.length === 0) {
    console.log(
      '  checks: every generated session listed exactly once; no unreadable, unparsed or bad-line files; token totals equal to the logs.',
    );
    return;
  }
  console.log('');
  console.log('  !!!!!!!! READER CHECKS FAILED: these are reader bugs to report, not bench noise !!!!!!!!');
  for (const f of failures) {
    console.log(`  !! ${f.agent}:`);
    for (const p of f.problems.slice(0, 12)) console.log(`  !!   ${p}`);
    if (f.problems.length > 12) console.log(`  !!   … and ${f.problems.length - 12} more`);
  }
  process.exitCode = 1;
}

main();
