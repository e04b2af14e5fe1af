// `npm run chaos`: the chaos suite (test/chaos/) with many more generated homes than `npm test` runs.
// `node scripts/chaos.mjs [--runs N] [--seed S] [--max-seconds T]`; the env vars CHAOS_RUNS and
// CHAOS_SEED do the same. Past --max-seconds (default 600) the run is stopped and exits 124.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.CHAOS_RUNS ?? '200' },
    seed: { type: 'string', default: process.env.CHAOS_SEED ?? String(Date.now() % 2 ** 31) },
    'max-seconds': { type: 'string', default: '600' },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);
const maxSeconds = Number(values['max-seconds']);
for (const [name, n] of [
  ['--runs', runs],
  ['--seed', seed],
  ['--max-seconds', maxSeconds],
]) {
  if (!Number.isInteger(n) || n < 0) {
    console.error(`chaos: ${name} must be a whole number, got ${JSON.stringify(values[name.slice(2)])}`);
    process.exit(2);
  }
}

console.log(`chaos: ${runs} generated homes, seed ${seed} (repeat with --seed ${seed}), stopped after ${maxSeconds} s`);
const child = spawn(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/chaos', `--testTimeout=${maxSeconds * 1000}`],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHAOS_RUNS: String(runs), CHAOS_SEED: String(seed) },
    detached: true,
  },
);
const timer = setTimeout(() => {
  console.error(`chaos: still running after ${maxSeconds} s; stopping it`);
  // The whole process group: vitest's workers and the CLI processes they spawned.
  process.kill(-child.pid, 'SIGKILL');
  process.exitCode = 124;
}, maxSeconds * 1000);
child.on('exit', (code) => {
  clearTimeout(timer);
  if (process.exitCode === undefined) process.exitCode = code ?? 1;
});
// The suite runs in its own process group (so a stop reaches every CLI it spawned); pass Ctrl-C on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.kill(-child.pid, 'SIGKILL');
    process.exitCode = signal === 'SIGINT' ? 130 : 143;
  });
}
