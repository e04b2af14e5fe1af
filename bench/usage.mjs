// Usage benchmark: `node bench/usage.mjs <home>` (after `npm run build`). `agentlog usage daily
// --json` cold (empty state root) and on an unchanged home, beside `scan --json` cold (the goal:
// usage cold within 1.5× of it) and `ccusage daily --json --offline` on the same home; then the
// token totals of both for Claude Code (the agent both read the same way), which must be equal.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentEnv, timed } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
const home = resolve(process.argv[2] ?? join(here, '.cache', 'home-256m'));
const ccusage = join(here, '.tools', 'ccusage', 'node_modules', '.bin', 'ccusage');

const fmt = (n, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const row = (label, value, baseLabel, baseValue, ratio) =>
  console.log(`  ${label.padEnd(38)} ${value.padStart(10)}   ${baseLabel.padEnd(30)} ${baseValue.padStart(10)}   ratio ${ratio}`);
/** agentlog's id and ccusage 20's sub-command for every other agent both read. */
const both = [
  ['codex', 'codex'],
  ['opencode', 'opencode'],
  ['pi', 'pi'],
  ['gemini', 'gemini'],
  ['kimi', 'kimi'],
  ['qwen', 'qwen'],
  ['droid', 'droid'],
  ['goose', 'goose'],
  ['copilot', 'copilot'],
];
const tokens = (t) => [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens];

function ours(args, state) {
  const r = timed(cli, args, agentEnv(home, state));
  if (r.status !== 0) throw new Error(`agentlog ${args.join(' ')} failed: ${r.stderr}`);
  return r;
}

const scanState = mkdtempSync(join(tmpdir(), 'agentlog-usage-bench-scan-'));
const state = mkdtempSync(join(tmpdir(), 'agentlog-usage-bench-'));
const claudeState = mkdtempSync(join(tmpdir(), 'agentlog-usage-bench-claude-'));
const emptyHome = mkdtempSync(join(tmpdir(), 'agentlog-usage-bench-empty-'));
try {
  const scanCold = ours(['scan', '--json'], scanState);
  const scanWarm = ours(['scan', '--json'], scanState);
  const startup = timed(cli, ['--help'], agentEnv(home, scanState));
  const cold = ours(['usage', 'daily', '--json'], state);
  const warm = ours(['usage', 'daily', '--json'], state);
  row(
    'usage daily --json, cold',
    `${fmt(cold.seconds)} s`,
    'scan --json, cold',
    `${fmt(scanCold.seconds)} s`,
    fmt(cold.seconds / scanCold.seconds),
  );
  row('usage daily --json, unchanged home', `${fmt(warm.seconds)} s`, 'goal', '0.30 s', fmt(warm.seconds / 0.3));
  row(
    'usage daily --json, unchanged home',
    `${fmt(warm.seconds)} s`,
    'scan --json, unchanged',
    `${fmt(scanWarm.seconds)} s`,
    fmt(warm.seconds / scanWarm.seconds),
  );
  row('(agentlog --help: start-up alone)', `${fmt(startup.seconds)} s`, '', '', '-');
  row('usage peak RSS cold / unchanged', `${fmt(cold.rssMiB, 0)} MiB`, 'unchanged', `${fmt(warm.rssMiB, 0)} MiB`, '-');
  const all = JSON.parse(warm.stdout);
  console.log(
    `  agentlog, every agent: ${all.daily.length} days, tokens [in, out, cache write, cache read] ${tokens(all.totals).join(', ')}, $${fmt(all.totals.totalCost)}`,
  );
  if (!existsSync(ccusage)) console.log('  (ccusage not installed: run `npm run bench` once with BENCH_ONLY=scan to install it)');
  else {
    const theirsAll = timed(ccusage, ['daily', '--json', '--offline'], { ...agentEnv(home, state), HOME: home });
    row(
      'ccusage daily --json --offline',
      `${fmt(theirsAll.seconds)} s`,
      'agentlog unchanged',
      `${fmt(warm.seconds)} s`,
      fmt(warm.seconds / theirsAll.seconds),
    );
    row(
      'ccusage daily, cold vs agentlog cold',
      `${fmt(theirsAll.seconds)} s`,
      'agentlog usage cold',
      `${fmt(cold.seconds)} s`,
      fmt(cold.seconds / theirsAll.seconds),
    );
    // Claude Code alone: ccusage kept away from the other agents by an empty HOME.
    const theirs = timed(ccusage, ['daily', '--json', '--offline'], {
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      HOME: emptyHome,
      TZ: 'UTC',
    });
    const mine = ours(['usage', 'daily', '--json', '--agent', 'claude_code'], claudeState);
    const a = JSON.parse(mine.stdout);
    const b = JSON.parse(theirs.stdout);
    const same = JSON.stringify(tokens(a.totals)) === JSON.stringify(tokens(b.totals));
    console.log(`  claude code tokens, agentlog: ${tokens(a.totals).join(', ')}  $${fmt(a.totals.totalCost, 4)} (${a.daily.length} days)`);
    console.log(
      `  claude code tokens, ccusage:  ${tokens(b.totals).join(', ')}  $${fmt(b.totals.totalCost, 4)} (${b.daily.length} days) → ${same ? 'EQUAL' : 'DIFFERENT'}`,
    );
    const dayDiff = a.daily.filter((d, i) => JSON.stringify(tokens(d)) !== JSON.stringify(tokens(b.daily[i] ?? {}))).length;
    console.log(`  claude code days whose tokens differ from ccusage's: ${dayDiff} of ${a.daily.length}`);
    // The other agents both read, each through ccusage's own sub-command on the same home, against
    // agentlog's warm cache: [input, output, cache write, cache read].
    for (const [ours_, theirs_] of both) {
      const m = JSON.parse(ours(['usage', 'daily', '--json', '--agent', ours_], state).stdout);
      const t = timed(ccusage, [theirs_, 'daily', '--json', '--offline'], { ...agentEnv(home, state), HOME: home });
      let theirsTokens = null;
      try {
        theirsTokens = JSON.parse(t.stdout).totals ?? null;
      } catch {
        theirsTokens = null;
      }
      // The four counts, not totalTokens: ccusage adds reasoning into some agents' totals (OpenCode, Gemini, Droid).
      const mineTokens = tokens(m.totals).join(', ');
      const theirs = theirsTokens === null ? t.stderr.trim().split('\n').at(-1) : tokens(theirsTokens).join(', ');
      console.log(`  ${ours_.padEnd(9)} agentlog [${mineTokens}]  ccusage [${theirs}] → ${mineTokens === theirs ? 'EQUAL' : 'DIFFERENT'}`);
    }
  }
} finally {
  for (const d of [scanState, state, claudeState, emptyHome]) rmSync(d, { recursive: true, force: true });
}
