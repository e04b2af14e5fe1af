// `tail <id> -n 50` as a whole command (start-up included): resolved through the scan cache (one
// home opened) beside the walk of every home (an empty state root: no cache), in the same run, for
// a Claude Code id (the first agent custody tries) and a Kimi Code id (a later one), with start-up
// alone (`--version`) and `node -e 0`. CPU seconds (user + system) are the figure: on a loaded
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
  cpu(['node', cli, 'scan', '--json'], agentEnv(home, cached));
  const startup = measure(['node', cli, '--version'], agentEnv(home, empty));
  const bare = measure(['node', '-e', '0'], {});
  console.log(`  start-up alone (--version)   cpu ${fmt(startup.cpu)} s  wall ${fmt(startup.wall)} s   node -e 0: cpu ${fmt(bare.cpu)} s`);
  for (const [agent, id] of [
    ['claude_code', claudeId],
    ['kimi', kimiId],
  ]) {
    if (id === undefined) continue;
    const walk = measure(['node', cli, 'tail', id, '-n', '50'], agentEnv(home, empty));
    const hit = measure(['node', cli, 'tail', id, '-n', '50'], agentEnv(home, cached));
    console.log(
      `  tail ${agent} id -n 50, cache   cpu ${fmt(hit.cpu)} s  wall ${fmt(hit.wall)} s   walk: cpu ${fmt(walk.cpu)} s  wall ${fmt(walk.wall)} s   cpu ratio ${fmt(hit.cpu / walk.cpu)}`,
    );
  }
} finally {
  rmSync(cached, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}
