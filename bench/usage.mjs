// Usage benchmark: `node bench/usage.mjs <home>` (after `npm run build`). `agentlog usage daily
// --json` cold (empty state root) and on an unchanged home, beside `scan --json` cold (the goal:
// usage cold within 1.5× of it) and `ccusage daily --json --offline` on the same home; then the
// token totals of both: Claude Code's per day, then every other agent both read, where the two count
// by different rules with ccusage's figure carried over by the rule so the difference left is 0.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadReaders } from '../dist/agents/registry.js';
import { agentEnv, binFlags, timed } from './run.mjs';

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

const four = ['input_tokens', 'output_tokens', 'cache_creation_tokens', 'cache_read_tokens'];
/** Sums `scan --json` rows' totals (`field`: the main agent's own, or with subagents). */
const scanSum = (rows, field, key) => rows.reduce((a, r) => a + r[field][key], 0);
const plus = (a, b) => a.map((v, i) => v + b[i]);
const minus = (a, b) => a.map((v, i) => v - b[i]);
const list = (v) => `[${v.join(', ')}]`;

/**
 * Copilot's shutdown metrics from the events files: summed over every lifetime as agentlog counts
 * them (input less cache reads); ccusage 20's reading (per session and model the largest of each
 * figure, input less cache reads and writes); and between the two, the largest with agentlog's input.
 */
function copilotShutdowns() {
  const root = join(home, '.copilot', 'session-state');
  const all = [0, 0, 0, 0];
  const largest = [0, 0, 0, 0];
  const largestOwnInput = [0, 0, 0, 0];
  let resumed = 0;
  for (const dir of existsSync(root) ? readdirSync(root) : []) {
    const file = join(root, dir, 'events.jsonl');
    if (!existsSync(file)) continue;
    const byModel = new Map();
    let shutdowns = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"session.shutdown"')) continue;
      shutdowns++;
      for (const [model, metric] of Object.entries(JSON.parse(line).data?.modelMetrics ?? {})) {
        const u = metric.usage ?? {};
        const [input, output, write, read] = [u.inputTokens ?? 0, u.outputTokens ?? 0, u.cacheWriteTokens ?? 0, u.cacheReadTokens ?? 0];
        const counts = [input - read, output, write, read];
        for (let i = 0; i < 4; i++) all[i] += counts[i];
        const seen = byModel.get(model) ?? [[0, 0, 0, 0], 0];
        byModel.set(model, [seen[0].map((v, i) => Math.max(v, counts[i])), Math.max(seen[1], input - read - write)]);
      }
    }
    if (shutdowns > 1) resumed++;
    for (const [max, theirInput] of byModel.values())
      for (let i = 0; i < 4; i++) {
        largestOwnInput[i] += max[i];
        largest[i] += i === 0 ? theirInput : max[i];
      }
  }
  return { all, largest, largestOwnInput, resumed };
}

/**
 * ccusage's figures carried over to agentlog's rule, for the agents the two count differently.
 * Each takes ccusage's four counts and agentlog's `scan --json` for the agent.
 */
const explained = {
  // Qwen Code's promptTokenCount holds the cache reads and candidatesTokenCount the thoughts, and
  // ccusage shows both as they stand; agentlog counts each token once (input without cache reads,
  // output without reasoning) and adds the subagents' executionSummary tokens ccusage does not read.
  qwen(theirs, scanned) {
    const rows = scanned.sessions;
    const reasoning = scanSum(rows, 'totals', 'reasoning_tokens');
    const subagents = four.map((k) => scanSum(rows, 'totals_with_subagents', k) - scanSum(rows, 'totals', k));
    const once = [theirs[0] - theirs[3], theirs[1] - reasoning, theirs[2], theirs[3]];
    return {
      figures: plus(once, subagents),
      steps: [
        `ccusage's input less its cache reads (${theirs[3]}), its output less the reasoning (${reasoning}): ${list(once)}`,
        `+ the subagents (task executionSummary) ccusage does not read: ${list(subagents)}`,
      ],
    };
  },
  // ccusage reads Goose's sessions.db only; agentlog also reads the legacy <id>.jsonl sessions that
  // are not in the database (those that are count once, as the database's).
  goose(theirs, scanned) {
    const legacy = scanned.sessions.filter((r) => r.file.endsWith('.jsonl'));
    const extra = four.map((k) => scanSum(legacy, 'totals', k));
    return { figures: plus(theirs, extra), steps: [`+ ${legacy.length} legacy .jsonl sessions ccusage does not read: ${list(extra)}`] };
  },
  // Each Copilot process lifetime ends with a session.shutdown stating that lifetime's usage per
  // model (a resume restores no token counts): agentlog sums them; ccusage keeps, per session and
  // model, the largest of each figure, as if they were cumulative, and takes cache writes out of input too.
  copilot(theirs) {
    const { all, largest, largestOwnInput, resumed } = copilotShutdowns();
    return {
      figures: plus(theirs, minus(all, largest)),
      steps: [
        `ccusage's rule recomputed from the events files: ${list(largest)} (ccusage minus it: ${list(minus(theirs, largest))})`,
        `+ the cache writes ccusage also takes out of input: ${list(minus(largestOwnInput, largest))}`,
        `+ the earlier lifetimes of ${resumed} resumed sessions ccusage drops: ${list(minus(all, largestOwnInput))}`,
      ],
    };
  },
};

/**
 * The floor of any unchanged report that checks each log before trusting what it remembers: a bare
 * node process (the bin's flags) that only stats every file of every session discovery lists, once.
 * An append shows only in the file's own size and mtime, so no design can skip these stats.
 */
async function statFloor() {
  const dir = mkdtempSync(join(tmpdir(), 'agentlog-usage-bench-floor-'));
  const env = agentEnv(home, dir);
  const lookup = { env: (n) => env[n] ?? (n === 'GEMINI_CLI_HOME' ? home : undefined), homedir: home };
  const paths = new Set();
  for (const reader of await loadReaders())
    for (const h of reader.homes(lookup)) for (const s of (await reader.discover(h)).sessions) for (const f of s.files) paths.add(f.path);
  const list = join(dir, 'paths.txt');
  writeFileSync(list, [...paths].join('\n'));
  const script = `const fs=require('node:fs');for(const p of fs.readFileSync(${JSON.stringify(list)},'utf8').split('\\n'))fs.statSync(p,{throwIfNoEntry:false});`;
  let best;
  for (let i = 0; i < 3; i++) {
    const r = timed(process.execPath, [...binFlags(), '-e', script], {});
    if (best === undefined || r.seconds < best.seconds) best = r;
  }
  rmSync(dir, { recursive: true, force: true });
  return { seconds: best.seconds, files: paths.size };
}

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
  const floor = await statFloor();
  row(
    'usage daily --json, unchanged home',
    `${fmt(warm.seconds)} s`,
    `stat floor (${floor.files} files)`,
    `${fmt(floor.seconds)} s`,
    fmt(warm.seconds / floor.seconds),
  );
  console.log('  (stat floor: node with no work but one stat of every session file, best of 3: what checking each log costs here)');
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
    // agentlog's warm cache: [input, output, cache write, cache read]. Where the two count by
    // different rules, ccusage's figure is carried over by the known rule (`explained`), with the
    // figures of each step, so what remains is the unexplained difference (0 when understood).
    for (const [ours_, theirs_] of both) {
      const m = JSON.parse(ours(['usage', 'daily', '--json', '--agent', ours_], state).stdout);
      const t = timed(ccusage, [theirs_, 'daily', '--json', '--offline'], { ...agentEnv(home, state), HOME: home });
      let theirsTotals = null;
      try {
        theirsTotals = JSON.parse(t.stdout).totals ?? null;
      } catch {
        theirsTotals = null;
      }
      // The four counts, not totalTokens: ccusage adds reasoning into some agents' totals (OpenCode, Gemini, Droid).
      const mine = tokens(m.totals);
      if (theirsTotals === null) {
        console.log(`  ${ours_.padEnd(9)} agentlog [${mine.join(', ')}]  ccusage [${t.stderr.trim().split('\n').at(-1)}]`);
        continue;
      }
      const theirs = tokens(theirsTotals);
      const rule = explained[ours_];
      const carried =
        rule === undefined
          ? { figures: theirs, steps: [] }
          : rule(theirs, JSON.parse(ours(['scan', '--json', '--agent', ours_], state).stdout));
      const left = mine.map((v, i) => v - carried.figures[i]);
      const verdict = left.every((v) => v === 0)
        ? rule === undefined
          ? 'EQUAL'
          : 'EXPLAINED, difference 0'
        : `DIFFERENT by [${left.join(', ')}]`;
      console.log(`  ${ours_.padEnd(9)} agentlog [${mine.join(', ')}]  ccusage [${theirs.join(', ')}] → ${verdict}`);
      for (const step of carried.steps) console.log(`            ${step}`);
    }
  }
} finally {
  for (const d of [scanState, state, claudeState, emptyHome]) rmSync(d, { recursive: true, force: true });
}
