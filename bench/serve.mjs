// `agentlog serve` benchmark: `node bench/serve.mjs <home> [<big session file>]` (after `npm run build`).
// Starts the built CLI's serve over the bench home (the state root in a temporary folder; the Pi
// home is swapped for a temporary one holding a live session to append to, so the bench home is
// never written) and measures, as issue 11 asks:
//   the first keep + index sweep, and the RSS of the idle process after it;
//   GET /api/sessions and GET /api/session/… (the biggest session's newest page) throughput and
//   p50/p99 at 16 concurrent keep-alive connections, each run bounded in time;
//   the first /events entry of the biggest session (and replay_start);
//   append → visible in /events and in message search, five appends.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentEnv } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
const home = resolve(process.argv[2] ?? join(here, '.cache', 'home-64m'));
const bigFile = process.argv[3] !== undefined && process.argv[3] !== '' ? process.argv[3] : null;
const loadSeconds = Number(process.env.BENCH_SERVE_SECONDS ?? 8);
const connections = 16;

const work = mkdtempSync(join(tmpdir(), 'agentlog-serve-bench-'));
const state = join(work, 'state');
const piHome = join(work, 'pi');
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const row = (label, value, goal) => console.log(`  ${label.padEnd(44)} ${value.padStart(16)}   ${goal}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A live Pi session (v3) written as Pi writes it, with times of now so it is inside the index window.
const piId = '01990000-0000-7000-8000-00000000beef';
const piFile = join(piHome, 'sessions', '--bench-live--', `2026-01-01T00-00-00-000Z_${piId}.jsonl`);
let piLast = 'l2';
function piLine(id, parentId, role, text) {
  const ts = Date.now();
  const message =
    role === 'user'
      ? { role, content: [{ type: 'text', text }], timestamp: ts }
      : { role, content: [{ type: 'text', text }], model: 'bench', usage: { input: 1, output: 1 }, stopReason: 'stop', timestamp: ts };
  return `${JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(ts).toISOString(), message })}\n`;
}
mkdirSync(dirname(piFile), { recursive: true });
writeFileSync(
  piFile,
  `${JSON.stringify({ type: 'session', version: 3, id: piId, timestamp: new Date().toISOString(), cwd: '/bench/live' })}\n${piLine('l1', null, 'user', 'start the live bench session')}${piLine('l2', 'l1', 'assistant', 'ready')}`,
);

const env = { ...process.env, ...agentEnv(home, state), PI_CODING_AGENT_DIR: piHome };
const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
const started = performance.now();
const url = await new Promise((resolveUrl, reject) => {
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
    const m = /open (http:\/\/[^\s]+)/.exec(stderr);
    if (m !== null) resolveUrl(m[1]);
  });
  child.on('close', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
});
const origin = new URL(url).origin;
const token = new URL(url).searchParams.get('token');
const headers = { Authorization: `Bearer ${token}` };
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

/** One GET; a keep-alive socket the server closed just as it was reused is retried once. */
async function get(path, extra = {}) {
  try {
    return await getOnce(path, extra);
  } catch (error) {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
    return getOnce(path, extra);
  }
}

function getOnce(path, extra) {
  return new Promise((resolveGet, reject) => {
    const req = http.get(`${origin}${path}`, { agent, headers: { ...headers, ...extra } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolveGet({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
const getJson = async (path) => JSON.parse((await get(path)).body.toString('utf8'));

function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? Number.NaN : Number(m[1]) / 1024;
}

/** 16 connections issuing `path` back to back for `seconds`: requests/s, p50, p99 (ms). */
async function load(path, seconds) {
  const latencies = [];
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const r = await get(path);
      latencies.push(performance.now() - t0);
      if (r.status !== 200) failed++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const secs = (performance.now() - t0) / 1000;
  return { rps: latencies.length / secs, p50: pct(latencies, 50), p99: pct(latencies, 99), n: latencies.length, failed };
}

/** Opens an event stream; resolves `first` at the first entry, and calls `onEntry` for each entry. */
function openEvents(path, onEntry = () => undefined) {
  const t0 = performance.now();
  let res;
  let firstAt = null;
  let replayStartAt = null;
  let replayEnd = null;
  const first = new Promise((resolveFirst, reject) => {
    const req = http.get(`${origin}${path}`, { headers }, (r) => {
      res = r;
      let buf = '';
      r.setEncoding('utf8');
      r.on('data', (d) => {
        buf += d;
        for (let at = buf.indexOf('\n\n'); at !== -1; at = buf.indexOf('\n\n')) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'replay_start' && replayStartAt === null) replayStartAt = performance.now() - t0;
          if (event === 'replay_end') replayEnd?.();
          if (event === 'entry') {
            if (firstAt === null) {
              firstAt = performance.now() - t0;
              resolveFirst({ firstMs: firstAt, replayStartMs: replayStartAt });
            }
            onEntry(JSON.parse(data));
          }
        }
      });
    });
    req.on('error', reject);
  });
  const replayed = new Promise((r) => (replayEnd = r));
  return { first, replayed, close: () => res?.destroy() };
}

try {
  console.log(`  serve pid ${child.pid} on ${origin}; home ${home} (Pi home replaced by a live one)`);
  // The first sweep: keep and index both report.
  let health;
  for (;;) {
    health = await getJson('/api/health');
    const last = health.last_sweep;
    if (!health.sweeping && last?.keep !== null && last?.index !== null && last !== null) break;
    await sleep(250);
  }
  const firstSweepS = (performance.now() - started) / 1000;
  row(
    'first keep + index sweep (from start)',
    `${fmt(firstSweepS, 1)} s`,
    `${health.indexed.sessions} sessions, ${health.indexed.messages} messages indexed`,
  );
  await getJson('/api/sessions?limit=1');
  await sleep(3000);
  const idle = rssMiB(child.pid);
  row('idle RSS after the first sweep', `${fmt(idle, 0)} MiB`, 'goal ≤ 250 MiB');

  const sessions = await load('/api/sessions?limit=50', loadSeconds);
  row(
    `GET /api/sessions?limit=50 (${connections} conns, ${loadSeconds} s)`,
    `${fmt(sessions.rps, 0)} req/s`,
    `p50 ${fmt(sessions.p50)} ms, p99 ${fmt(sessions.p99)} ms, ${sessions.failed} failed`,
  );
  const bigId = bigFile === null ? null : basename(bigFile, '.jsonl');
  if (bigId !== null) {
    const detail = await load(`/api/session/claude_code/${bigId}?limit=100`, loadSeconds);
    row(
      `GET /api/session/… newest 100 (${connections} conns)`,
      `${fmt(detail.rps, 0)} req/s`,
      `p50 ${fmt(detail.p50)} ms, p99 ${fmt(detail.p99)} ms, ${detail.failed} failed`,
    );
    const mid = await getJson(`/api/session/claude_code/${bigId}?limit=1`);
    const older = await load(`/api/session/claude_code/${bigId}?limit=100&before=${Math.floor(mid.total / 2)}`, loadSeconds);
    row(
      'GET /api/session/… a middle page of 100',
      `${fmt(older.rps, 0)} req/s`,
      `p50 ${fmt(older.p50)} ms, p99 ${fmt(older.p99)} ms, ${older.failed} failed`,
    );
    const firsts = [];
    for (let i = 0; i < 5; i++) {
      const ev = openEvents(`/api/session/claude_code/${bigId}/events`);
      firsts.push(await ev.first);
      ev.close();
    }
    row(
      `first /events entry, ${fmt(readFileSync(bigFile).length / 1e6, 0)} MB session`,
      `${fmt(
        pct(
          firsts.map((f) => f.firstMs),
          50,
        ),
      )} ms`,
      `max ${fmt(Math.max(...firsts.map((f) => f.firstMs)))} ms; replay_start ${fmt(
        pct(
          firsts.map((f) => f.replayStartMs),
          50,
        ),
      )} ms; goal ≤ 100 ms`,
    );
  }

  // Append → visible, live stream and message search.
  const seen = new Map();
  const live = openEvents(`/api/session/pi/${piId}/events`, (e) => {
    const m = /bench-word-(\d+)/.exec(e.preview ?? '');
    if (m !== null && !seen.has(m[1])) seen.set(m[1], performance.now());
  });
  await live.replayed;
  const toEvents = [];
  const toSearch = [];
  for (let i = 0; i < 5; i++) {
    await sleep(1500);
    const word = `zq${Date.now().toString(36)}`;
    const id = `n${i}`;
    const t0 = performance.now();
    appendFileSync(piFile, piLine(id, piLast, 'user', `bench-word-${i} ${word}`));
    piLast = id;
    let found = Number.NaN;
    while (performance.now() - t0 < 15_000) {
      const r = await getJson(`/api/sessions/message-search?q=${word}`).catch(() => ({ sessions: [] }));
      if ((r.sessions ?? []).length > 0) {
        found = performance.now() - t0;
        break;
      }
      await sleep(25);
    }
    toSearch.push(found);
    const at = seen.get(String(i));
    toEvents.push(at === undefined ? Number.NaN : at - t0);
  }
  live.close();
  row(
    'append → visible in /events (5 appends)',
    `${fmt(pct(toEvents, 50), 0)} ms`,
    `max ${fmt(Math.max(...toEvents), 0)} ms; goal ≤ 1000 ms`,
  );
  row('append → found by message search', `${fmt(pct(toSearch, 50), 0)} ms`, `max ${fmt(Math.max(...toSearch), 0)} ms; goal ≤ 1000 ms`);
  const log = readFileSync(join(state, 'logs', 'serve.log'), 'utf8')
    .trim()
    .split('\n');
  console.log(
    `  serve.log: ${log.length} lines; last sweep: ${
      log
        .filter((l) => l.includes('sweep'))
        .at(-1)
        ?.slice(25) ?? '—'
    }`,
  );
} finally {
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('close', r));
  rmSync(work, { recursive: true, force: true });
}
