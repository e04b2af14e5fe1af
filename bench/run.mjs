// `npm run bench`: generates the 1 GiB bench home once (cached under bench/.cache/) and prints every
// figure beside a baseline measured in the same run. `BENCH_MIB=256 npm run bench` for a smaller home;
// `BENCH_ONLY=scan,custody` to run some sections.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateHome, generatorVersion } from './generate-home.mjs';
import { agentFiles, agentIds, baselineAgent, fileCount, statsKey } from './agent-baseline.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'dist', 'cli', 'main.js');
const mib = Number(process.env.BENCH_MIB ?? 1024);
const only = process.env.BENCH_ONLY?.split(',');
const want = (name) => only === undefined || only.includes(name);

function ensureHome() {
  const home = join(here, '.cache', `home-${mib}m`);
  const marker = join(home, 'generated.json');
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8'));
    if (m.version === generatorVersion) return { home, stats: m.stats };
  }
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  console.log(`generating a ${mib} MiB bench home in ${home} (once)…`);
  const big = mib >= 512 ? 87_000_000 : Math.floor((mib * 1024 * 1024) / 8);
  const stats = generateHome(home, mib * 1024 * 1024, { bigFileBytes: big });
  writeFileSync(marker, JSON.stringify({ version: generatorVersion, stats }));
  return { home, stats };
}

/** Runs a command under GNU time: wall seconds, peak RSS in MiB, stdout. */
export function timed(cmd, args, env) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', cmd, ...args], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const lines = r.stderr.trim().split('\n');
  const [secs, kb] = (lines.at(-1) ?? '0 0').split(' ').map(Number);
  return { seconds: secs, rssMiB: kb / 1024, stdout: r.stdout, stderr: lines.slice(0, -1).join('\n'), status: r.status };
}

export function agentEnv(home, stateRoot) {
  return {
    HOME: home,
    AGENTLOG_HOME: stateRoot,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    CODEX_HOME: join(home, '.codex'),
    KIMI_CODE_HOME: join(home, '.kimi-code'),
    PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'),
    INTENDANT_HOME: join(home, '.intendant'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    TZ: 'UTC',
    NO_COLOR: '1',
  };
}

const fmt = (n, d = 1) => n.toFixed(d);
const row = (label, value, baseLabel, baseValue, ratio) =>
  console.log(`  ${label.padEnd(34)} ${value.padStart(14)}   ${baseLabel.padEnd(28)} ${baseValue.padStart(12)}   ratio ${ratio}`);

function ensureCcusage() {
  const dir = join(here, '.tools', 'ccusage');
  const bin = join(dir, 'node_modules', '.bin', 'ccusage');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  console.log('installing ccusage@20.0.24 into bench/.tools (once)…');
  const r = spawnSync(
    'npm',
    ['i', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', 'ccusage@20.0.24', '@ccusage/ccusage-linux-x64@20.0.24'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0 || !existsSync(bin)) {
    console.log(`  (ccusage could not be installed: ${r.stderr.trim().split('\n').at(-1)})`);
    return null;
  }
  return bin;
}

/** Tokens of scan rows, subagents included, in the shape the comparisons use. */
export function sumTotals(sessions) {
  const t = { input: 0, output: 0, cacheRead: 0, cacheCreate: 0 };
  for (const s of sessions) {
    const x = s.totals_with_subagents;
    t.input += x.input_tokens;
    t.output += x.output_tokens;
    t.cacheRead += x.cache_read_tokens;
    t.cacheCreate += x.cache_creation_tokens;
  }
  return t;
}

function benchScan(home, stats) {
  console.log('\n## scan (issue 2)');
  // Every agent's files, each read the way agent-baseline.mjs says (JSONL split and parsed per line).
  const perAgent = agentIds.map((a) => agentFiles(home, a));
  const all = {
    jsonl: perAgent.flatMap((f) => f.jsonl),
    json: perAgent.flatMap((f) => f.json),
    text: perAgent.flatMap((f) => f.text),
    sqlite: perAgent.flatMap((f) => f.sqlite),
    markdown: perAgent.flatMap((f) => f.markdown),
  };
  const base = baselineAgent(all);
  const bytes = base.bytes;
  row(
    'baseline: chunked read+split+JSON.parse',
    `${fmt(base.mibps)} MiB/s`,
    `${fileCount(all)} files`,
    `${fmt(bytes / 1048576)} MiB`,
    '1.00',
  );
  const state = mkdtempSync(join(tmpdir(), 'agentlog-bench-'));
  try {
    const env = agentEnv(home, state);
    const cold = timed(cli, ['scan', '--json'], env);
    if (cold.status !== 0) throw new Error(`scan failed: ${cold.stderr}`);
    const coldMibps = bytes / 1048576 / cold.seconds;
    row('agentlog scan, cold', `${fmt(coldMibps)} MiB/s`, 'baseline', `${fmt(base.mibps)} MiB/s`, fmt(coldMibps / base.mibps, 2));
    row('agentlog scan, cold: time / peak RSS', `${fmt(cold.seconds, 2)} s`, 'peak RSS', `${fmt(cold.rssMiB)} MiB`, '-');
    const warm = timed(cli, ['scan', '--json'], env);
    row(
      'agentlog scan, unchanged home',
      `${fmt(warm.seconds, 2)} s`,
      'cold scan',
      `${fmt(cold.seconds, 2)} s`,
      fmt(warm.seconds / cold.seconds, 3),
    );
    const report = JSON.parse(cold.stdout);
    const claude = report.sessions.filter((s) => s.agent === 'claude_code');
    const ours = sumTotals(claude);
    const listed = agentIds
      .map((a) => `${a} ${report.sessions.filter((s) => s.agent === a).length}/${stats[statsKey(a)]?.sessions ?? '?'}`)
      .join(', ');
    const wrote = agentIds.reduce((n, a) => n + (stats[statsKey(a)]?.sessions ?? 0), 0);
    console.log(
      `  sessions listed/written: ${report.sessions.length}/${wrote} (${listed}); unreadable ${report.unreadable.length}, unparsed ${report.unparsed.length}`,
    );
    console.log(
      `  claude tokens (ours, with subagents): in ${ours.input} out ${ours.output} cache read ${ours.cacheRead} cache write ${ours.cacheCreate}`,
    );
    const cc = ensureCcusage();
    if (cc !== null) {
      const run = timed(cc, ['session', '--json', '--offline'], { CLAUDE_CONFIG_DIR: join(home, '.claude'), HOME: home });
      console.log('  (ccusage 20 reads every agent it knows in this home: Claude Code, Codex, Kimi, Pi, Gemini CLI, OpenCode)');
      row(
        'ccusage session --json, cold',
        `${fmt(run.seconds, 2)} s`,
        'agentlog scan cold',
        `${fmt(cold.seconds, 2)} s`,
        fmt(cold.seconds / run.seconds, 2),
      );
      row(
        'agentlog unchanged vs ccusage',
        `${fmt(warm.seconds, 2)} s`,
        'ccusage',
        `${fmt(run.seconds, 2)} s`,
        fmt(warm.seconds / run.seconds, 2),
      );
      try {
        const j = JSON.parse(run.stdout);
        // ccusage 20 names the list `session` and reads the other agents of the home too: Claude's only.
        const list = (j.sessions ?? j.session ?? j.data ?? []).filter((s) => s.agent === undefined || s.agent === 'claude');
        const theirs = { input: 0, output: 0, cacheRead: 0, cacheCreate: 0 };
        for (const s of list) {
          theirs.input += s.inputTokens ?? 0;
          theirs.output += s.outputTokens ?? 0;
          theirs.cacheRead += s.cacheReadTokens ?? 0;
          theirs.cacheCreate += s.cacheCreationTokens ?? 0;
        }
        const same = JSON.stringify(theirs) === JSON.stringify(ours);
        console.log(
          `  ccusage tokens: in ${theirs.input} out ${theirs.output} cache read ${theirs.cacheRead} cache write ${theirs.cacheCreate} → ${same ? 'EQUAL' : 'DIFFERENT'}`,
        );
      } catch (e) {
        console.log(`  (could not read ccusage output: ${e.message})`);
      }
    }
    if (cc !== null) {
      // The comparison: the Claude Code half alone, ccusage kept away from the other agents.
      const emptyHome = mkdtempSync(join(tmpdir(), 'agentlog-bench-empty-'));
      const claudeState = mkdtempSync(join(tmpdir(), 'agentlog-bench-claude-'));
      try {
        const ours = timed(cli, ['scan', '--agent', 'claude_code', '--json'], agentEnv(home, claudeState));
        const oursWarm = timed(cli, ['scan', '--agent', 'claude_code', '--json'], agentEnv(home, claudeState));
        const theirs = timed(cc, ['session', '--json', '--offline'], { CLAUDE_CONFIG_DIR: join(home, '.claude'), HOME: emptyHome });
        row(
          'claude only: agentlog scan cold',
          `${fmt(ours.seconds, 2)} s`,
          'ccusage (claude only)',
          `${fmt(theirs.seconds, 2)} s`,
          fmt(ours.seconds / theirs.seconds, 2),
        );
        row(
          'claude only: agentlog unchanged',
          `${fmt(oursWarm.seconds, 2)} s`,
          'ccusage (claude only)',
          `${fmt(theirs.seconds, 2)} s`,
          fmt(oursWarm.seconds / theirs.seconds, 2),
        );
        row(
          'claude only: peak RSS',
          `${fmt(ours.rssMiB)} MiB`,
          'ccusage peak RSS',
          `${fmt(theirs.rssMiB)} MiB`,
          fmt(ours.rssMiB / theirs.rssMiB, 2),
        );
      } finally {
        rmSync(emptyHome, { recursive: true, force: true });
        rmSync(claudeState, { recursive: true, force: true });
      }
    }
    if (stats.bigFile) {
      const size = statSync(stats.bigFile).size;
      const show = timed(cli, ['show', stats.bigFile, '--json'], env);
      row(`show ${fmt(size / 1e6, 0)} MB file --json`, `${fmt(show.seconds, 2)} s`, 'peak RSS', `${fmt(show.rssMiB)} MiB`, '-');
      const showText = timed(cli, ['show', stats.bigFile], env);
      row(`show ${fmt(size / 1e6, 0)} MB file (text)`, `${fmt(showText.seconds, 2)} s`, 'peak RSS', `${fmt(showText.rssMiB)} MiB`, '-');
    }
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

/** The V8 flags the bin's shebang gives node (`#!/usr/bin/env -S node --flag …`). */
export function binFlags() {
  const first = readFileSync(join(here, '..', 'dist', 'cli', 'main.js'), 'utf8').split('\n', 1)[0] ?? '';
  return first.split(/\s+/).filter((w) => w.startsWith('--'));
}

/** Runs a section's script; `asBin`: under the bin's V8 flags, for a script that runs the library in process as the CLI would. */
function runScript(name, script, home, stats, asBin = false) {
  const path = join(here, script);
  if (!existsSync(path)) {
    console.log(`\n## ${name}: ${script} not present`);
    return;
  }
  console.log(`\n## ${name}`);
  const args = [...(asBin ? binFlags() : []), path, home, stats.bigFile ?? ''];
  const r = spawnSync('node', args, { stdio: 'inherit', env: { ...process.env } });
  if (r.status !== 0) console.log(`  (${script} exited ${r.status})`);
}

// Run only as the entry point: section scripts import `timed` and `agentEnv` from here.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { home, stats } = ensureHome();
  console.log(`bench home: ${home} (${mib} MiB, node ${process.version})`);
  if (want('scan')) benchScan(home, stats);
  if (want('agents')) runScript('per-agent scan throughput (issue 3)', 'agents.mjs', home, stats);
  if (want('sessionlog')) runScript('session-log writer (issue 4)', 'sessionlog-write.mjs', home, stats);
  // Under the bin's flags: its peak RSS is the first keep's as `agentlog keep` has it.
  if (want('custody')) runScript('custody (issue 5)', 'custody.mjs', home, stats, true);
  if (want('search')) runScript('message search (issue 6)', 'search.mjs', home, stats);
  if (want('usage')) runScript('usage (issue 15)', 'usage.mjs', home, stats);
  if (want('tail')) runScript('tail by id through the scan cache (issue 16)', 'tail.mjs', home, stats);
  if (want('mcp')) runScript('mcp (issue 17)', 'mcp.mjs', home, stats);
  if (want('serve')) runScript('agentlog serve (issue 11)', 'serve.mjs', home, stats);
  if (want('dashboard')) runScript('the dashboard in Chromium (issue 12)', 'dashboard.mjs', home, stats);
  if (want('hub')) runScript('agentlog hub (issue 13)', 'hub.mjs', home, stats);
  if (want('sync')) runScript('sync: redaction and the dry-run pipeline (issue 14)', 'sync.mjs', home, stats);
  if (want('rss')) runScript('peak RSS and signal stop on one 300 MB session (issue 10)', 'rss.mjs', home, stats);
}
