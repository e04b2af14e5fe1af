// `tail <id> -n 50` as a whole command (start-up included): resolved through the scan's session
// index (one home opened) beside the walk of every home (an empty state root: no index), in the same
// run, for a Claude Code id (the first agent custody tries), its 8-character prefix, and a Kimi Code
// id (a later one); `show <id> --detail summary --json` of a small session the same two ways; with
// start-up alone (`--version`, `--help`) and `node -e 0`. The bin runs as a user runs it (its shebang's
// V8 flag costs Node's own code cache ~12 ms of every command, measured). CPU seconds (user + system) are the figure: on a loaded
// machine wall time mostly measures the queue. `node bench/tail.mjs <home>` after `npm run build`.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { agentEnv } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
const home = resolve(process.argv[2] ?? join(here, '.cache', 'home-256m'));
const runs = 5;

/** Wall and CPU seconds of one run. */
function cpu(args, env) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const [wall, user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '0 0 0').split(' ').map(Number);
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { wall, cpu: user + sys };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => n.toFixed(2);
function measure(args, env) {
  const rs = Array.from({ length: runs }, () => cpu(args, env));
  return { wall: median(rs.map((r) => r.wall)), cpu: median(rs.map((r) => r.cpu)) };
}

const firstIn = (dir, test) => {
  for (const sub of readdirSync(dir)) for (const name of readdirSync(join(dir, sub))) if (test(name)) return name;
  return undefined;
};
const claudeId = firstIn(join(home, '.claude', 'projects'), (n) => n.endsWith('.jsonl'))?.replace(/\.jsonl$/, '');
const kimiId = firstIn(join(home, '.kimi-code', 'sessions'), (n) => n.startsWith('session_'));

const cached = mkdtempSync(join(tmpdir(), 'agentlog-tail-bench-'));
const empty = mkdtempSync(join(tmpdir(), 'agentlog-tail-bench-empty-'));
try {
  cpu([cli, 'scan', '--json'], agentEnv(home, cached));
  const startup = measure([cli, '--version'], agentEnv(home, empty));
  const bare = measure(['node', '-e', '0'], {});
  const help = measure([cli, '--help'], agentEnv(home, empty));
  console.log(`  start-up alone (--version)   cpu ${fmt(startup.cpu)} s  wall ${fmt(startup.wall)} s   node -e 0: cpu ${fmt(bare.cpu)} s`);
  console.log(`  --help                       cpu ${fmt(help.cpu)} s  wall ${fmt(help.wall)} s`);
  const both = (label, args) => {
    const walk = measure([cli, ...args], agentEnv(home, empty));
    const hit = measure([cli, ...args], agentEnv(home, cached));
    console.log(
      `  ${label}, index   cpu ${fmt(hit.cpu)} s  wall ${fmt(hit.wall)} s   walk: cpu ${fmt(walk.cpu)} s  wall ${fmt(walk.wall)} s   cpu ratio ${fmt(hit.cpu / walk.cpu)}`,
    );
  };
  for (const [agent, id] of [
    ['claude_code', claudeId],
    ['kimi', kimiId],
  ]) {
    if (id === undefined) continue;
    both(`tail ${agent} id -n 50`, ['tail', id, '-n', '50']);
    if (agent === 'claude_code') both(`tail ${agent} prefix -n 50`, ['tail', id.slice(0, 8), '-n', '50']);
  }
  // The smallest Claude Code session the scan listed: `show` parses all of it.
  const listed = JSON.parse(
    spawnSync('node', [cli, 'scan', '--agent', 'claude_code', '--json'], {
      env: { ...process.env, ...agentEnv(home, cached) },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    }).stdout,
  );
  const claude = listed.sessions.filter((x) => x.agent === 'claude_code');
  const small = claude.reduce((a, b) => (b.turns < a.turns ? b : a), claude[0]);
  if (small !== undefined)
    both(`show small (${small.turns} turns) summary json`, ['show', small.session_id, '--detail', 'summary', '--json']);
} finally {
  rmSync(cached, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}
