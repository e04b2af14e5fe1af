// The sync benchmark (issue 14): `node bench/sync.mjs <home>` (after `npm run build`).
//  - redaction MB/s (redactJson over record-shaped JSON values, every string value) beside
//    JSON.parse + JSON.stringify of the same bytes, measured in the same run, as a ratio;
//  - the sync --dry-run pipeline (parse, elide, level, redact, clip, cap, serialise, whole-body check)
//    over every session of the bench home at `full`, beside record building alone (parse + finalise
//    + serialise), as MB/s of session files and a ratio.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = (p) => pathToFileURL(join(here, '..', 'dist', p)).href;
const { redactJson } = await import(dist('sync/redact/index.js'));
const { plantedSecrets } = await import(dist('sync/redact/samples.js'));
const { readers } = await import(dist('agents/registry.js'));
const { discoverAll } = await import(dist('scan/scan.js'));
const { finaliseRecord } = await import(dist('record/finalise.js'));
const { serialiseRecord } = await import(dist('record/serialise.js'));
const { makeHomeElider } = await import(dist('record/home-elide.js'));
const { runSync } = await import(dist('sync/run.js'));
const { cachedRealPath } = await import(dist('sync/settings.js'));

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const row = (label, value, baseLabel, baseValue, ratio) =>
  console.log(`  ${label.padEnd(40)} ${value.padStart(12)}   ${baseLabel.padEnd(30)} ${baseValue.padStart(12)}   ratio ${ratio}`);

// 1. Redaction throughput over record-shaped values: prose, code, paths, a planted secret now and then.
function corpus(targetBytes) {
  const prose = 'The build failed because the config loader read ~/code/demo/.env before the migration ran; ';
  const code = 'const total = items.reduce((n, x) => n + x.size, 0);\nif (total > limit) throw new Error("over the limit");\n';
  const secrets = Object.values(plantedSecrets).map((s) => s.text);
  const turns = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    const text = prose.repeat(8) + (i % 7 === 0 ? secrets[i % secrets.length] : '') + code.repeat(6);
    const turn = {
      role: 'assistant',
      at: '2026-10-01T09:30:00.000Z',
      text,
      tool_calls: [{ name: 'Bash', input: `rg -n "total" src/${i}.ts`, output: code.repeat(10) }],
    };
    bytes += JSON.stringify(turn).length;
    turns.push(turn);
  }
  return { turns };
}

function bestOf(runs, f) {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    f();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return best;
}

const value = corpus(16 * 1024 * 1024);
const text = JSON.stringify(value);
const mb = Buffer.byteLength(text) / 1e6;
let redactions = 0;
const redactS = bestOf(3, () => {
  redactions = redactJson(value).redactions;
});
const jsonS = bestOf(3, () => JSON.stringify(JSON.parse(text)));
console.log(`redaction (${fmt(mb)} MB of record-shaped JSON, ${redactions} redactions):`);
row('redactJson', `${fmt(mb / redactS)} MB/s`, 'JSON.parse + stringify', `${fmt(mb / jsonS)} MB/s`, fmt(jsonS / redactS, 3));

// 2. `sync --dry-run` (runSync without a hub: header judgement, parse with redaction before the
// clips, elide, level, redact, clip, cap, serialise, whole-body check, the note) over every session
// of the home with everything allowed at `full`, beside record building alone (parse + finalise +
// serialise), as MB/s of session files and a ratio.
const home = process.argv[2];
if (home !== undefined) {
  const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CODEX_HOME: join(home, '.codex') };
  const lookup = { env: (n) => env[n], homedir: home };
  const agents = readers.map((reader) => ({ reader, homes: reader.homes(lookup) }));
  const { sessions } = await discoverAll(agents);
  let fileBytes = 0;
  // Each file once: the sessions of one database (Crush, Goose, OpenCode) all name the same file.
  const seen = new Set();
  for (const { session } of sessions)
    for (const f of session.files) {
      if (seen.has(f.path)) continue;
      seen.add(f.path);
      fileBytes += statSync(f.path).size;
    }
  const elide = makeHomeElider(home);
  const t0 = process.hrtime.bigint();
  let built = 0;
  for (const { reader, session } of sessions) {
    const p = await reader.parse(session, { detail: 'full' });
    if (p.record !== null) built += serialiseRecord(finaliseRecord(p.record, { detail: 'full', elide })).length;
  }
  const recordS = Number(process.hrtime.bigint() - t0) / 1e9;
  const t1 = process.hrtime.bigint();
  const report = await runSync({
    agents,
    allow: new Map([['/', 'full']]),
    real: cachedRealPath(),
    homes: [home],
    cache: null,
    hub: null,
    // One read at a time, as record building above reads.
    concurrency: 1,
  });
  const syncS = Number(process.hrtime.bigint() - t1) / 1e9;
  const would = report.sessions.filter((x) => x.status === 'would_upload').length;
  const failed = report.sessions.filter((x) => x.status === 'failed').length;
  const fmb = fileBytes / 1e6;
  console.log(
    `sync --dry-run over ${sessions.length} sessions, ${fmt(fmb)} MB of files (${fmt(built / 1e6)} MB of records; ${would} would upload, ${report.skipped} skipped, ${failed} refused, ${report.redacted} redactions):`,
  );
  row(
    'sync --dry-run (runSync, no hub)',
    `${fmt(fmb / syncS)} MB/s`,
    'parse + record building',
    `${fmt(fmb / recordS)} MB/s`,
    fmt(recordS / syncS, 3),
  );
}

// 3. An unchanged re-sync of 3,000 small sessions against a hub on 127.0.0.1 (SQLite): the first
// sync uploads (not timed), the second is timed and must send no body (counted on the hub side).
{
  const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { createHubApp } = await import(dist('hub/app.js'));
  const { listenHub } = await import(dist('hub/server.js'));
  const { openSqliteStore } = await import(dist('hub/sqlite/index.js'));
  const { hashToken, newToken } = await import(dist('hub/tokens.js'));
  const { HubClient } = await import(dist('sync/hub/client.js'));
  const { claudeCodeReader } = await import(dist('agents/claude-code/reader.js'));
  const count = Number(process.env.SYNC_BENCH_SESSIONS ?? 3000);
  const root = await mkdtemp(join(tmpdir(), 'agentlog-sync-bench-'));
  try {
    const claude = join(root, 'home', '.claude');
    const repo = join(root, 'home', 'code', 'demo');
    const dir = join(claude, 'projects', repo.replace(/[^A-Za-z0-9]/g, '-'));
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < count; i++) {
      const id = `${String(i).padStart(8, '0')}-1111-4222-8333-444444444444`;
      const base = { sessionId: id, cwd: repo, gitBranch: 'main', isSidechain: false, parentUuid: null };
      const t = (n) => new Date(Date.UTC(2026, 0, 1) + i * 60_000 + n * 1000).toISOString();
      const lines = [
        { ...base, type: 'user', uuid: `u1-${i}`, timestamp: t(1), message: { role: 'user', content: `Task ${i}: fix the loader` } },
        {
          ...base,
          type: 'assistant',
          uuid: `a1-${i}`,
          timestamp: t(2),
          requestId: `r-${i}`,
          message: {
            id: `m-${i}`,
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text: `Fixed loader ${i}. ${'The config is read after the migration. '.repeat(20)}` }],
            usage: { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
          },
        },
      ];
      await writeFile(join(dir, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    }
    const store = openSqliteStore(join(root, 'hub.db'));
    await store.migrate(new Date().toISOString());
    const token = newToken();
    await store.addUser('bench', 'bench', hashToken(token), new Date().toISOString());
    const app = createHubApp({ store, clock: { now: () => Date.now() }, version: 'bench', log: () => undefined });
    let bodies = 0;
    const server = await listenHub(
      (req) => {
        if (req.method === 'POST' && new URL(req.url).pathname === '/v1/sources') bodies++;
        return app.fetch(req);
      },
      '127.0.0.1',
      0,
    );
    const url = `http://127.0.0.1:${server.address().port}`;
    const opts = () => ({
      agents: [{ reader: claudeCodeReader, homes: [claude] }],
      allow: new Map([[repo, 'full']]),
      real: cachedRealPath(),
      homes: [join(root, 'home')],
      cache: null,
      hub: new HubClient({ url, token, userAgent: 'bench' }),
    });
    const first = await runSync(opts());
    const uploaded = bodies;
    bodies = 0;
    const t2 = process.hrtime.bigint();
    const again = await runSync(opts());
    const resyncS = Number(process.hrtime.bigint() - t2) / 1e9;
    const t3 = process.hrtime.bigint();
    await runSync({ ...opts(), hub: null });
    const dryS = Number(process.hrtime.bigint() - t3) / 1e9;
    console.log(
      `unchanged re-sync of ${count} sessions (first sync: ${first.uploaded} uploaded, ${uploaded} bodies; re-sync: ${again.unchanged} unchanged, ${again.uploaded} uploaded, ${again.notes.unchanged} notes unchanged):`,
    );
    row('re-sync against the hub', `${fmt(resyncS, 2)} s`, 'the same run as --dry-run', `${fmt(dryS, 2)} s`, fmt(dryS / resyncS, 3));
    console.log(`  bodies the hub received on the re-sync: ${bodies} (goal 0); goal ≤ 5 s on a quiet machine`);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await store.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
