// The team hub benchmark (issue 13): `node bench/hub.mjs` (after `npm run build`). Starts the built
// CLI's `hub serve` on SQLite (a temporary file) and on PostgreSQL (127.0.0.1:5432 database `test`,
// a fresh schema dropped after; skipped when unreachable) and measures with autocannon, each run
// bounded in time, 32 connections on loopback:
//   GET /v1/sources (1,000 rows held, pages of 50) — requests/s, p99 and the hub's CPU per request
//   (on SQLite the same page is read again from the hub's page cache until a commit moves the
//   database's change stamp, so this is the read-mostly figure);
//   POST /v1/sources of distinct ~8 KiB session records — sessions/s and p99;
//   GET /v1/search over 10,000 notes — p50/p99 at 1 connection, requests/s at 32.
// Each figure is printed beside a baseline measured in the same run: a bare node:http "hello" and
// the same on Hono (@hono/node-server), each in its own process like the hub.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cli = join(root, 'dist', 'cli', 'main.js');
const seconds = Number(process.env.BENCH_HUB_SECONDS ?? 8);
// A narrower run while working on one figure: BENCH_HUB_SECTIONS=list (of list,ingest,search),
// BENCH_HUB_BACKENDS=postgres (of sqlite,postgres); BENCH_HUB_NODE_ARGS passes node options to the
// hub process (`--cpu-prof --cpu-prof-dir=DIR` for a profile of it under the load).
const pick = (name, all) => new Set((process.env[name] ?? all).split(','));
const sections = pick('BENCH_HUB_SECTIONS', 'list,ingest,search');
const backends = pick('BENCH_HUB_BACKENDS', 'sqlite,postgres');
const hubNodeArgs = (process.env.BENCH_HUB_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
const connections = 32;
const pgUrl = process.env.AGENTLOG_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const work = mkdtempSync(join(tmpdir(), 'agentlog-hub-bench-'));
const env = { ...process.env, AGENTLOG_HOME: join(work, 'state'), HOME: work, NO_COLOR: '1', TZ: 'UTC' };

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const row = (label, value, baseLabel, baseValue, ratio) =>
  console.log(`  ${label.padEnd(40)} ${value.padStart(18)}   ${baseLabel.padEnd(22)} ${baseValue.padStart(18)}   ratio ${ratio}`);

/** A rate beside a baseline's rate. */
const rateRow = (label, value, unit, baseLabel, base) =>
  row(label, `${fmt(value, 0)} ${unit}`, baseLabel, `${fmt(base.rps, 0)} req/s`, fmt(value / base.rps, 3));
/** A latency beside the Hono hello p99. */
const msRow = (label, ms, base) =>
  row(label, `${fmt(ms, 1)} ms`, 'Hono hello p99', `${fmt(base.p99, 1)} ms`, fmt(ms / Math.max(base.p99, 0.5), 1));

/**
 * CPU time (ms, user + system) a process has used, from /proc (Linux; NaN elsewhere): per request
 * it moves far less than req/s when other work shares the cores.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A child process serving on a free port; resolves with its URL (read from its first stdout line). */
function serve(args, json = true) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const line = out.split('\n')[0];
      resolve({ url: json ? JSON.parse(line).url.replace(/\/$/, '') : line.trim(), child });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${err}`)));
  });
}

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

function cannon(opts) {
  return autocannon({ connections, duration: seconds, ...opts });
}

const helloNode = `
import http from 'node:http';
const s = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port));`;
const helloHono = `
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
const app = new Hono();
app.get('/', (c) => c.json({ ok: true }));
const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log('http://127.0.0.1:' + info.port));`;

/** A session record of about `bytes`, deterministic for `i`. */
function record(i, bytes = 8 * 1024) {
  const words = 'the migration plan for the login redirect loop keeps every token counted once'.split(' ');
  const text = Array.from({ length: Math.ceil(bytes / 7) }, (_, k) => words[(i + k) % words.length])
    .join(' ')
    .slice(0, bytes);
  return JSON.stringify({
    schema_version: 3,
    collector_version: 3,
    agent: i % 2 === 0 ? 'claude_code' : 'codex',
    detail: 'full',
    session_id: `bench-${i}-${randomBytes(4).toString('hex')}`,
    repo: '~/work/demo',
    branch: 'main',
    models: ['m'],
    started_at: '2026-10-01T10:00:00.000Z',
    ended_at: '2026-10-01T10:05:00.000Z',
    turns: [
      { role: 'user', at: '2026-10-01T10:00:00.000Z', text: `ask ${i}` },
      { role: 'assistant', at: '2026-10-01T10:00:01.000Z', text, tool_calls: [] },
    ],
    totals: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0, cost_usd: null },
    truncated: false,
    omitted_turns: 0,
    omitted_subagent_turns: 0,
  });
}

const vocabulary = Array.from({ length: 2000 }, (_, i) => `w${(i * 7919).toString(36)}`);
function noteBody(i) {
  const words = [];
  let x = Math.imul(i + 1, 2654435761) >>> 0;
  for (let k = 0; k < 200; k++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    words.push(vocabulary[(x >>> 8) % vocabulary.length]);
  }
  return `# Session ${i}\n\nUser: ${words.slice(0, 8).join(' ')}\n\n${words.join(' ')}`;
}

async function baselines() {
  const out = {};
  for (const [name, code] of [
    ['node:http hello', helloNode],
    ['Hono hello', helloHono],
  ]) {
    const s = await serve(['--input-type=module', '-e', code], false);
    const r = await cannon({ url: `${s.url}/` });
    out[name] = { rps: r.requests.average, p99: r.latency.p99 };
    await stop(s.child);
  }
  return out;
}

function userAdd(db) {
  const r = spawnSync(process.execPath, [cli, 'hub', 'user', 'add', 'bench', '--workspace', 'bench', '--db', db, '--json'], {
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`hub user add: ${r.stderr}`);
  return JSON.parse(r.stdout).token;
}

/** Fills the hub through its own routes, 32 at a time. */
async function seed(url, token, path, amount, bodyOf) {
  let next = 0;
  const worker = async () => {
    while (next < amount) {
      const i = next++;
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(bodyOf(i)),
      });
      if (res.status >= 300) throw new Error(`seeding ${path}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

async function benchBackend(label, db, base) {
  const token = userAdd(db);
  const hub = await serve([...hubNodeArgs, cli, 'hub', 'serve', '--db', db, '--listen', '127.0.0.1:0', '--json']);
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  try {
    const t0 = performance.now();
    await seed(hub.url, token, '/v1/sources', 1000, (i) => ({ kind: 'agent_log', body: record(1_000_000 + i), project: `p${i % 20}` }));
    console.log(`  (${label}: 1,000 sources seeded through POST /v1/sources in ${fmt((performance.now() - t0) / 1000, 1)} s)`);

    const b = base['Hono hello'];
    const n = base['node:http hello'];
    if (sections.has('list')) {
      const cpu0 = cpuMs(hub.child.pid);
      const list = await cannon({ url: `${hub.url}/v1/sources?limit=50`, headers });
      const cpu = (cpuMs(hub.child.pid) - cpu0) / list.requests.total;
      rateRow(`${label}: GET /v1/sources (50 rows)`, list.requests.average, 'req/s', 'Hono hello', b);
      msRow(`${label}: GET /v1/sources p99`, list.latency.p99, b);
      rateRow(`${label}: GET /v1/sources vs node:http`, list.requests.average, 'req/s', 'node:http hello', n);
      console.log(`  (${label}: the hub used ${fmt(cpu * 1000, 0)} µs of CPU per listing; load average ${loadavg()[0].toFixed(1)})`);
      if (list.non2xx > 0 || list.errors > 0) console.log(`  (listing: ${list.non2xx} non-2xx, ${list.errors} errors)`);
    }
    if (sections.has('ingest')) {
      let i = 0;
      const ingest = await cannon({
        url: `${hub.url}/v1/sources`,
        method: 'POST',
        headers,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ kind: 'agent_log', body: record(i++), project: 'bench' }) }),
          },
        ],
      });
      const created = ingest['2xx'] / (ingest.duration || seconds);
      rateRow(`${label}: POST /v1/sources (8 KiB sessions)`, created, 'sessions/s', 'Hono hello', b);
      msRow(`${label}: POST /v1/sources p99`, ingest.latency.p99, b);
      if (ingest.non2xx > 0 || ingest.errors > 0) console.log(`  (ingest: ${ingest.non2xx} non-2xx, ${ingest.errors} errors)`);
    }
    if (sections.has('search')) {
      const t1 = performance.now();
      await seed(hub.url, token, '/v1/notes', 10_000, (k) => ({
        slug: `note-${k}`,
        title: `note ${k}`,
        body: noteBody(k),
        project: `p${k % 10}`,
      }));
      console.log(`  (${label}: 10,000 notes seeded through POST /v1/notes in ${fmt((performance.now() - t1) / 1000, 1)} s)`);
      let q = 0;
      const searchReq = [
        {
          method: 'GET',
          setupRequest: (req) => {
            q++;
            const word = vocabulary[(q * 31) % vocabulary.length];
            const path = q % 3 === 0 ? `/v1/search?q=${word}&project=p${q % 10}&limit=20` : `/v1/search?q=${word}&limit=20`;
            return { ...req, path };
          },
        },
      ];
      const one = await autocannon({ url: hub.url, connections: 1, duration: seconds, headers, requests: searchReq });
      msRow(`${label}: search 10k notes, 1 conn p50`, one.latency.p50, b);
      msRow(`${label}: search 10k notes, 1 conn p99`, one.latency.p99, b);
      const many = await cannon({ url: hub.url, headers, requests: searchReq });
      rateRow(`${label}: search 10k notes, 32 conn`, many.requests.average, 'req/s', 'Hono hello', b);
      msRow(`${label}: search 10k notes, 32 conn p99`, many.latency.p99, b);
      if (one.non2xx + many.non2xx > 0) console.log(`  (search: ${one.non2xx + many.non2xx} non-2xx)`);
    }
  } finally {
    await stop(hub.child);
  }
}

async function pgSchema() {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    return { error: error.message };
  }
  const schema = `hub_bench_${randomBytes(4).toString('hex')}`;
  await client.query(`CREATE SCHEMA ${schema}`);
  return {
    url: `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`,
    drop: async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

try {
  console.log(`  (2 cores shared; ${connections} connections, ${seconds} s per run, loopback; node ${process.version})`);
  const base = await baselines();
  for (const [name, r] of Object.entries(base)) row(`baseline: ${name}`, `${fmt(r.rps, 0)} req/s`, 'p99', `${fmt(r.p99, 1)} ms`, '1.000');
  if (backends.has('sqlite')) await benchBackend('sqlite', `sqlite:${join(work, 'hub.db')}`, base);
  const made = backends.has('postgres') ? await pgSchema() : { error: 'not asked for' };
  if (made.url === undefined) console.log(`  (postgres skipped: ${pgUrl} unreachable: ${made.error})`);
  else
    try {
      await benchBackend('postgres', made.url, base);
    } finally {
      await made.drop();
    }
} finally {
  rmSync(work, { recursive: true, force: true });
}
