// Sync against a real hub on 127.0.0.1 (SQLite file store): a planted-secret corpus reaches the
// database with no secret and no home path in its bytes; a session outside every allowed path is
// never parsed; an unchanged re-sync sends no body; a hub killed mid-sync loses nothing and
// duplicates nothing on the next run.
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp.js';
import { claudeCodeReader } from '../agents/claude-code/reader.js';
import { assistant, jsonl, toolResult, toolUse, usage, user, write } from '../agents/claude-code/test-support/fixtures.js';
import type { AgentHomes, AgentReader } from '../agents/types.js';
import { createHubApp } from '../hub/app.js';
import { listenHub } from '../hub/server.js';
import { openSqliteStore } from '../hub/sqlite/index.js';
import { openHubStore } from '../hub/open-store.js';
import { describePg, freshSchema, pgUrl } from '../hub/test-support/postgres.js';
import type { SqlStore } from '../hub/sql-store.js';
import { hashToken, newToken } from '../hub/tokens.js';
import { redactionClasses } from './redact/index.js';
import { plantedSecrets } from './redact/samples.js';
import { dashEncode } from './home-elide.js';
import { HubClient } from './hub/client.js';
import { runSync } from './run.js';
import { cachedRealPath } from './settings.js';

interface Hub {
  url: string;
  token: string;
  dbFiles(): Buffer;
  requests: { method: string; path: string }[];
  server: Server;
  store: SqlStore;
  stop(): Promise<void>;
}

const open: Hub[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop().catch(() => undefined);
});

async function startHub(
  dir: string,
  token: string,
  onRequest?: (path: string, count: number) => void,
  pgUrlWithSchema?: string,
): Promise<Hub> {
  const store = pgUrlWithSchema === undefined ? openSqliteStore(join(dir, 'hub.db')) : await openHubStore(pgUrlWithSchema);
  await store.migrate('2026-10-01T00:00:00.000Z');
  await store.addUser('ann', 'red', hashToken(token), '2026-10-01T00:00:00.000Z').catch(() => undefined);
  const app = createHubApp({ store, clock: { now: () => Date.now() }, version: 'test', log: () => undefined });
  const requests: { method: string; path: string }[] = [];
  const server = await listenHub(
    (req) => {
      const path = new URL(req.url).pathname;
      requests.push({ method: req.method, path });
      onRequest?.(path, requests.length);
      return app.fetch(req);
    },
    '127.0.0.1',
    0,
  );
  const port = (server.address() as AddressInfo).port;
  let stopped = false;
  const hub: Hub = {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    server,
    store,
    dbFiles: () =>
      Buffer.concat(
        readdirSync(dir)
          .filter((f) => f.startsWith('hub.db'))
          .map((f) => readFileSync(join(dir, f))),
      ),
    async stop() {
      if (stopped) return;
      stopped = true;
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await store.close();
    },
  };
  open.push(hub);
  return hub;
}

const everySecret = redactionClasses
  .filter((c) => c !== 'home_path')
  .map((c) => plantedSecrets[c].text)
  .join('\n');

/** A Claude Code session in `repo` carrying every planted secret in each place a string can travel. */
async function writeSession(claude: string, home: string, id: string, repo: string, extra = ''): Promise<void> {
  const dir = dashEncode(repo);
  const at = (_n: number): Record<string, unknown> => ({ sessionId: id, cwd: repo });
  const lines = [
    user(`Please look at ${repo}/src and ${home}/.ssh. ${extra}\n${everySecret}`, 1, at(1)),
    assistant(
      `m1-${id}`,
      [
        { type: 'text', text: `Reading ${home}/code. ${everySecret}` },
        toolUse(`tu1-${id}`, 'Bash', { command: `cat ${home}/.env # ${everySecret}` }),
      ],
      2,
      at(2),
      {
        usage: usage(10, 5),
      },
    ),
    user([toolResult(`tu1-${id}`, `${everySecret}\n${home}/.aws/credentials`)], 3, at(3)),
    assistant(
      `m2-${id}`,
      [
        toolUse(`tu2-${id}`, 'Task', {
          description: `Survey ${plantedSecrets.email.text}`,
          prompt: `Find keys ${everySecret}`,
          subagent_type: 'Explore',
        }),
      ],
      4,
      at(4),
      {
        usage: usage(10, 5),
      },
    ),
    user([toolResult(`tu2-${id}`, [{ type: 'text', text: `Found ${everySecret}` }])], 9, at(9)),
    assistant(`m3-${id}`, [{ type: 'text', text: 'done' }], 10, at(10), { usage: usage(1, 1) }),
  ];
  await write(join(claude, 'projects', dir, `${id}.jsonl`), jsonl(lines));
  const side = { isSidechain: true, agentId: `a-${id}`, sessionId: id, cwd: `${repo}/pkg` };
  await write(
    join(claude, 'projects', dir, id, 'subagents', `agent-a-${id}.meta.json`),
    JSON.stringify({ agentType: 'Explore', description: 'Survey', toolUseId: `tu2-${id}` }),
  );
  await write(
    join(claude, 'projects', dir, id, 'subagents', `agent-a-${id}.jsonl`),
    jsonl([
      user(`Find keys ${everySecret}`, 5, side),
      assistant(
        `s1-${id}`,
        [{ type: 'text', text: `In ${home}/code: ${everySecret}` }, toolUse(`st-${id}`, 'Read', { file_path: `${home}/code/demo/.env` })],
        6,
        side,
        { usage: usage(3, 3) },
      ),
      user([toolResult(`st-${id}`, everySecret)], 7, side),
      assistant(`s2-${id}`, [{ type: 'text', text: `Found ${everySecret}` }], 8, side, { usage: usage(1, 1) }),
    ]),
  );
}

async function fixture(sessions: number) {
  const root = await tempDir();
  const home = join(root, 'home', 'alice');
  const claude = join(home, '.claude');
  const repo = join(home, 'code', 'demo');
  const ids = Array.from({ length: sessions }, (_, i) => `0000000${i}-1111-4222-8333-444444444444`);
  for (const id of ids) await writeSession(claude, home, id, repo);
  const secretId = '99999999-1111-4222-8333-444444444444';
  await writeSession(claude, home, secretId, join(home, 'code', 'secret'));
  const parsedIds: string[] = [];
  const reader: AgentReader = {
    ...claudeCodeReader,
    async parse(session, ctx) {
      parsedIds.push(session.sessionId);
      return claudeCodeReader.parse(session, ctx);
    },
  };
  const agents: AgentHomes[] = [{ reader, homes: [claude] }];
  return { root, home, repo, ids, secretId, parsedIds, agents };
}

const quickRetry = { attempts: 2, baseDelayMs: 5, maxDelayMs: 20, attemptTimeoutMs: 2000, requestTimeoutMs: 3000, breakerAfter: 2 };

describe('sync against a real hub', () => {
  it('sends every opted-in session redacted and home-elided, reads no other session past its header, and re-sends no body', async () => {
    const f = await fixture(2);
    const hub = await startHub(await tempDir(), newToken());
    const client = new HubClient({ url: hub.url, token: hub.token, userAgent: 'test', retry: quickRetry });
    const opts = {
      agents: f.agents,
      allow: new Map([[f.repo, 'full' as const]]),
      real: cachedRealPath(),
      homes: [f.home],
      cache: null,
      hub: client,
    };
    const report = await runSync(opts);
    expect(report).toMatchObject({ scanned: 3, uploaded: 2, unchanged: 0, skipped: 1, unreadable: 0, unparsed: 0, dry_run: false });
    expect(report.notes).toEqual({ written: 2, unchanged: 0, failed: 0, would_write: 0 });
    expect(report.redacted).toBeGreaterThan(100);
    expect(report.sessions.find((s) => s.session_id === f.secretId)).toMatchObject({ status: 'skipped', reason: 'repo not opted in' });
    // The session outside every allowed path was judged on its header alone.
    expect(f.parsedIds).not.toContain(f.secretId);
    const ok = report.sessions.find((s) => s.status === 'uploaded')!;
    expect(ok).toMatchObject({ repo: '~/code/demo', detail: 'full', note: { status: 'written', project: 'demo' } });

    // What reached the database: no planted secret, no home path in any form.
    const bytes = hub.dbFiles().toString('latin1');
    for (const cls of redactionClasses) expect(bytes, cls).not.toContain(plantedSecrets[cls].secret);
    expect(bytes).not.toContain(f.home);
    expect(bytes).not.toContain(dashEncode(f.home));
    expect(bytes).not.toContain('/home/bobsmith');
    expect(bytes).toContain('[REDACTED:anthropic_key]');

    // Unchanged: one check, a listing for the ids, notes; no body.
    hub.requests.length = 0;
    const again = await runSync(opts);
    expect(again).toMatchObject({ uploaded: 0, unchanged: 2, skipped: 1 });
    expect(again.notes).toMatchObject({ unchanged: 2, written: 0 });
    expect(hub.requests.filter((r) => r.method === 'POST' && r.path === '/v1/sources')).toEqual([]);
    expect(hub.requests.filter((r) => r.path === '/v1/sources/check')).toHaveLength(1);
  });

  it('a hub killed mid-sync: that run reports failures, the next completes with nothing duplicated', async () => {
    const f = await fixture(6);
    const dir = await tempDir();
    const token = newToken();
    let hub: Hub | null = null;
    let uploads = 0;
    hub = await startHub(dir, token, (path) => {
      if (path === '/v1/sources' && ++uploads === 3) {
        // The third upload kills the hub (its connections cut, the socket closed).
        hub?.server.closeAllConnections();
        hub?.server.close();
      }
    });
    const url = hub.url;
    const opts = (h: HubClient) => ({
      agents: f.agents,
      allow: new Map([[f.repo, 'full' as const]]),
      real: cachedRealPath(),
      homes: [f.home],
      cache: null,
      hub: h,
      batchSize: 2,
    });
    const first = await runSync(opts(new HubClient({ url, token, userAgent: 'test', retry: quickRetry })));
    const failed = first.sessions.filter((s) => s.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(first.uploaded).toBeLessThan(6);
    await hub.stop();

    // The same database, a new hub on a new port.
    const revived = await startHub(dir, token);
    const second = await runSync(opts(new HubClient({ url: revived.url, token, userAgent: 'test', retry: quickRetry })));
    expect(second.sessions.filter((s) => s.status === 'failed')).toEqual([]);
    expect(second.uploaded + second.unchanged).toBe(6);
    const listed = await fetch(`${revived.url}/v1/sources?kind=agent_log&limit=100`, { headers: { authorization: `Bearer ${token}` } });
    const rows = ((await listed.json()) as { sources: { session_id: string }[] }).sources;
    expect(rows.map((r) => r.session_id).sort()).toEqual([...f.ids].sort());
  });
});

describePg('sync against a real hub on PostgreSQL', () => {
  it('stores only redacted, home-elided bodies and re-sends no body for unchanged sessions', async () => {
    const f = await fixture(2);
    const schema = await freshSchema();
    try {
      const hub = await startHub(await tempDir(), newToken(), undefined, schema.url);
      const client = new HubClient({ url: hub.url, token: hub.token, userAgent: 'test', retry: quickRetry });
      const opts = {
        agents: f.agents,
        allow: new Map([[f.repo, 'full' as const]]),
        real: cachedRealPath(),
        homes: [f.home],
        cache: null,
        hub: client,
      };
      expect(await runSync(opts)).toMatchObject({ uploaded: 2, skipped: 1 });
      hub.requests.length = 0;
      expect(await runSync(opts)).toMatchObject({ uploaded: 0, unchanged: 2 });
      expect(hub.requests.filter((r) => r.method === 'POST' && r.path === '/v1/sources')).toEqual([]);
      // Every stored byte, read back from PostgreSQL itself.
      const pgClient = new pg.Client({ connectionString: pgUrl });
      await pgClient.connect();
      try {
        const tables = await pgClient.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
          [schema.schema],
        );
        let dump = '';
        for (const t of tables.rows) {
          const rows = await pgClient.query(`SELECT * FROM ${schema.schema}."${t.table_name}"`);
          dump += JSON.stringify(rows.rows);
        }
        expect(dump).toContain('[REDACTED:anthropic_key]');
        for (const cls of redactionClasses) expect(dump, cls).not.toContain(plantedSecrets[cls].secret);
        expect(dump).not.toContain(f.home);
      } finally {
        await pgClient.end();
      }
      await hub.stop();
    } finally {
      await schema.drop();
    }
  });
});
