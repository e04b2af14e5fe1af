// The long-session case of the message-search bench (issue: multi-term search on a 20,000-message
// session): one Claude Code session of 20,000 messages of a few hundred characters, one term
// ('reply') in every message and another ('zebra') in one. `bench/search.mjs` indexes it in-process;
// `node bench/long-session.mjs <home>` writes it as `<home>/.claude/...` to time the CLI on it, and
// `node bench/long-session.mjs --query <store root> <q>` runs one cold query in this fresh process and
// prints {"ms", "loadMs"} (the search bench's cold figure):
//   node bench/long-session.mjs /tmp/long-home
//   HOME=/tmp/long-home CLAUDE_CONFIG_DIR=/tmp/long-home/.claude AGENTLOG_HOME=/tmp/long-state \
//     node dist/cli/main.js index && node dist/cli/main.js search reply zebra --json
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const longSessionId = '5e55b16c-0000-4000-8000-000000020000';
/** Two-term queries where one term is in every message: the shape that was quadratic. */
export const longSessionQueries = ['reply zebra', 'zebra reply', 'reply green', 'backs nothinghere'];

/** Writes the session under `claudeDir` (a `.claude` folder); returns the file's path. */
export function writeLongSession(claudeDir, messages = 20_000) {
  const dir = join(claudeDir, 'projects', '-bench-long');
  mkdirSync(dir, { recursive: true });
  const filler = 'Then it reads the log again from the last offset and checks every line it kept. '.repeat(3);
  const t0 = Date.now() - 20_000_000;
  const lines = [];
  for (let i = 0; i < messages; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const text = `reply number ${i}: the build is green and the retry loop backs off. ${filler}${i === 7 ? ' like a zebra' : ''}`;
    const message = role === 'user' ? { role, content: text } : { role, id: `m${i}`, content: [{ type: 'text', text }] };
    lines.push(
      JSON.stringify({
        type: role,
        sessionId: longSessionId,
        cwd: '/w',
        uuid: `l${i}`,
        timestamp: new Date(t0 + i * 1000).toISOString(),
        message,
      }),
    );
  }
  const path = join(dir, `${longSessionId}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** One query on a fresh cache in this process: its time, and how much of it was loading segments. */
export async function coldQuery(root, q) {
  const dist = (p) => pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', p)).href;
  const { search } = await import(dist('search/query.js'));
  const { ShardCache } = await import(dist('search/shard-cache.js'));
  const cache = new ShardCache(root);
  let loadMs = 0;
  const load = cache.load.bind(cache);
  cache.load = async (file) => {
    const t = performance.now();
    const r = await load(file);
    loadMs += performance.now() - t;
    return r;
  };
  const t = performance.now();
  await search({ q, windowDays: 0 }, { root, cache, budgets: { timeMs: 600_000 } });
  return { ms: performance.now() - t, loadMs };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [first, root, q] = process.argv.slice(2);
  if (first === '--query' && root !== undefined && q !== undefined) {
    console.log(JSON.stringify(await coldQuery(root, q)));
  } else if (first !== undefined && first !== '--query') {
    console.log(writeLongSession(join(resolve(first), '.claude')));
  } else {
    console.error('usage: node bench/long-session.mjs <home> | --query <store root> <q>');
    process.exit(2);
  }
}
