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
const { buildBody } = await import(dist('sync/body/build-body.js'));
const { readers } = await import(dist('agents/registry.js'));
const { discoverAll } = await import(dist('scan/scan.js'));
const { finaliseRecord } = await import(dist('record/finalise.js'));
const { serialiseRecord } = await import(dist('record/serialise.js'));
const { makeHomeElider } = await import(dist('record/home-elide.js'));

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

// 2. The dry-run pipeline against record building alone, over a home's sessions.
const home = process.argv[2];
if (home !== undefined) {
  const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'), CODEX_HOME: join(home, '.codex') };
  const lookup = { env: (n) => env[n], homedir: home };
  const agents = readers.map((reader) => ({ reader, homes: reader.homes(lookup) }));
  const { sessions } = await discoverAll(agents);
  let fileBytes = 0;
  for (const { session } of sessions) for (const f of session.files) fileBytes += statSync(f.path).size;
  const elide = makeHomeElider(home);
  const t0 = process.hrtime.bigint();
  let built = 0;
  for (const { reader, session } of sessions) {
    const p = await reader.parse(session, { detail: 'full' });
    if (p.record !== null) built += serialiseRecord(finaliseRecord(p.record, { detail: 'full', elide })).length;
  }
  const recordS = Number(process.hrtime.bigint() - t0) / 1e9;
  const t1 = process.hrtime.bigint();
  let sent = 0;
  let failed = 0;
  for (const { reader, session } of sessions) {
    const p = await reader.parse(session, { detail: 'full' });
    if (p.record === null) continue;
    const b = buildBody(p.record, { detail: 'full', homes: [home] });
    if (b.ok) sent += b.bytes;
    else failed++;
  }
  const syncS = Number(process.hrtime.bigint() - t1) / 1e9;
  const fmb = fileBytes / 1e6;
  console.log(
    `sync --dry-run pipeline over ${sessions.length} sessions, ${fmt(fmb)} MB of files (${fmt(built / 1e6)} MB of records, ${fmt(sent / 1e6)} MB of bodies, ${failed} refused):`,
  );
  row(
    'parse + body pipeline',
    `${fmt(fmb / syncS)} MB/s`,
    'parse + record building',
    `${fmt(fmb / recordS)} MB/s`,
    fmt(recordS / syncS, 3),
  );
}
