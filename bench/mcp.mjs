// MCP benchmark: `node bench/mcp.mjs <home>` (after `npm run build`). Builds the message index of
// the bench home (`agentlog index --window-days 0`, timed), starts `agentlog mcp` over stdio with
// the SDK's client, and times 100 `search_messages` calls (common, rare, two-term, non-ASCII and
// no-hit words) beside the same 100 queries run in-process by the search core: p50/p99 each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { agentEnv, timed } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = (p) => pathToFileURL(join(here, '..', 'dist', p)).href;
const { search } = await import(dist('search/query.js'));
const { ShardCache } = await import(dist('search/shard-cache.js'));
const { storeRoot } = await import(dist('search/store.js'));
const cli = join(here, '..', 'dist', 'cli', 'main.js');
const home = resolve(process.argv[2] ?? join(here, '.cache', 'home-256m'));

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '—');
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const row = (label, value, baseLabel, baseValue, ratio) =>
  console.log(`  ${label.padEnd(38)} ${value.padStart(12)}   ${baseLabel.padEnd(28)} ${baseValue.padStart(12)}   ${ratio}`);

const words = ['the', 'retry', 'logic', 'parser', 'test', 'café', 'naïve', 'build', 'error', 'config'];
const queries = Array.from({ length: 100 }, (_, i) => {
  const k = i % 5;
  if (k === 0) return words[i % words.length];
  if (k === 1) return `${words[i % words.length]} ${words[(i + 3) % words.length]}`;
  if (k === 2) return ['flamingos', 'übergang', '日本語', 'résumé', 'quux'][i % 5];
  if (k === 3) return words[(i * 7) % words.length];
  return `zq${i}xjv${i * 31}w`;
});

const state = mkdtempSync(join(tmpdir(), 'agentlog-mcp-bench-'));
try {
  const env = agentEnv(home, state);
  const built = timed(cli, ['index', '--window-days', '0', '--json'], env);
  if (built.status !== 0) throw new Error(`index failed: ${built.stderr}`);
  row('agentlog index (cold, all history)', `${fmt(built.seconds, 2)} s`, 'peak RSS', `${fmt(built.rssMiB, 0)} MiB`, '-');

  const client = new Client({ name: 'agentlog-bench', version: '1' });
  const t0 = performance.now();
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], env: { ...process.env, ...env }, stderr: 'ignore' }),
  );
  const connected = performance.now() - t0;
  const t1 = performance.now();
  await client.callTool({ name: 'search_messages', arguments: { query: 'the' } });
  const first = performance.now() - t1;
  row('mcp start + initialize', `${fmt(connected)} ms`, 'first search (one index sweep)', `${fmt(first)} ms`, '-');
  const viaMcp = [];
  for (const q of queries) {
    const t = performance.now();
    const r = await client.callTool({ name: 'search_messages', arguments: { query: q, limit: 20 } });
    viaMcp.push(performance.now() - t);
    if (r.isError) throw new Error(`search_messages failed: ${r.content[0]?.text}`);
  }
  await client.close();

  const root = storeRoot(state);
  const cache = new ShardCache(root);
  for (const q of queries) await search({ q, windowDays: 0, limit: 20 }, { root, cache });
  const inProcess = [];
  for (const q of queries) {
    const t = performance.now();
    await search({ q, windowDays: 0, limit: 20 }, { root, cache });
    inProcess.push(performance.now() - t);
  }
  row(
    'search_messages via stdio, p50',
    `${fmt(pct(viaMcp, 50))} ms`,
    'in-process search, p50',
    `${fmt(pct(inProcess, 50))} ms`,
    `ratio ${fmt(pct(viaMcp, 50) / pct(inProcess, 50), 2)}`,
  );
  row(
    'search_messages via stdio, p99',
    `${fmt(pct(viaMcp, 99))} ms`,
    'in-process search, p99',
    `${fmt(pct(inProcess, 99))} ms`,
    `ratio ${fmt(pct(viaMcp, 99) / pct(inProcess, 99), 2)}`,
  );
  console.log('  (after the first, the server sweeps and rescans in the background at most every 10 s)');
} finally {
  rmSync(state, { recursive: true, force: true });
}
