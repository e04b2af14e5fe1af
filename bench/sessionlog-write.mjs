// Write throughput of agentlog/sessionlog with its per-line flush (one write(2) per row, visible
// to tail readers and surviving a crash of the writer) next to raw baselines writing the same
// lines: writeSync on an open fd, appendFileSync (open/write/close per line) and, for scale,
// writeSync + fdatasync per line (durable against power loss).
// Usage: npm run build && node bench/sessionlog-write.mjs [events=50000]
import { appendFileSync, closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionLog, serialiseEvent, timeOfDay } from '../dist/sessionlog/index.js';

// `npm run bench` passes the bench home first; a count may be given by hand instead.
const n = /^\d+$/.test(process.argv[2] ?? '') ? Number(process.argv[2]) : 50_000;
const root = mkdtempSync(join(tmpdir(), 'agentlog-bench-'));

function line(i) {
  const ms = Date.now();
  return serialiseEvent({
    ts: timeOfDay(ms),
    ts_ms: ms,
    turn: 1,
    event: 'info',
    level: 'info',
    message: `row ${i} of the benchmark`,
    data: { i },
  });
}

function rate(count, ms) {
  return Math.round((count / ms) * 1000);
}

async function timed(label, count, fn) {
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  return { label, events: count, ms: Math.round(ms), per_s: rate(count, ms) };
}

const results = [];

// Open and close are timed apart: close rebuilds transcript.jsonl from the whole log once.
const lifecycle = [];
{
  const t0 = performance.now();
  const log = await SessionLog.open({ dir: join(root, 'lib-info'), projectRoot: '/p', task: 'bench' });
  lifecycle.push(['open', performance.now() - t0]);
  log.turnStart(1);
  results.push(
    await timed('sessionlog info() (1 row, 1 write)', n, () => {
      for (let i = 0; i < n; i++) log.info(`row ${i} of the benchmark`, { i });
    }),
  );
  const t1 = performance.now();
  await log.close();
  lifecycle.push([`close (transcript rebuilt from ${n} rows)`, performance.now() - t1]);
}

const m = Math.max(1, Math.floor(n / 5));
{
  const log = await SessionLog.open({ dir: join(root, 'lib-model'), projectRoot: '/p', task: 'bench' });
  results.push(
    await timed('sessionlog modelResponseWithMessage() (span + 2 rows)', m, () => {
      for (let i = 0; i < m; i++) {
        if (i % 50 === 0) log.turnStart(1 + i / 50);
        log.modelResponseWithMessage({ content: `response ${i}: ${'lorem ipsum '.repeat(20)}`, tokens: { prompt: 1000, completion: 100 } });
      }
    }),
  );
  await log.close();
}

results.push(
  await timed('baseline writeSync per line (open fd)', n, () => {
    const fd = openSync(join(root, 'raw-write.jsonl'), 'a', 0o600);
    for (let i = 0; i < n; i++) writeSync(fd, `${line(i)}\n`);
    closeSync(fd);
  }),
);

results.push(
  await timed('baseline appendFileSync per line', n, () => {
    const path = join(root, 'raw-append.jsonl');
    for (let i = 0; i < n; i++) appendFileSync(path, `${line(i)}\n`, { mode: 0o600 });
  }),
);

const d = Math.min(n, 2_000);
results.push(
  await timed('baseline writeSync + fdatasync per line', d, () => {
    const fd = openSync(join(root, 'raw-durable.jsonl'), 'a', 0o600);
    for (let i = 0; i < d; i++) {
      writeSync(fd, `${line(i)}\n`);
      fdatasyncSync(fd);
    }
    closeSync(fd);
  }),
);

rmSync(root, { recursive: true, force: true });
const width = Math.max(...results.map((r) => r.label.length));
console.log(`node ${process.version}, ${n} events`);
for (const r of results) console.log(`${r.label.padEnd(width)}  ${String(r.per_s).padStart(9)} events/s  (${r.events} in ${r.ms} ms)`);
for (const [label, ms] of lifecycle) console.log(`sessionlog ${label}: ${Math.round(ms)} ms`);
