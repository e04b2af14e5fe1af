// A hub for route tests: a temporary SQLite store, three users (ann and bob in workspace red, eve
// in blue) with tokens, and a request helper over the app's own request handler.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHubApp, type HubAppOptions } from '../app.js';
import { listenHub } from '../server.js';
import { openSqliteStore } from '../sqlite/index.js';
import type { SqlStore } from '../sql-store.js';
import { hashToken, newToken } from '../tokens.js';

export interface TestHub {
  app: ReturnType<typeof createHubApp>;
  store: SqlStore;
  tokens: { ann: string; bob: string; eve: string };
  logs: string[];
  request(
    path: string,
    init?: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A session record (schema 3) as the sync client serialises it. */
export function sessionJson(id: string, ask = `ask of ${id}`, agent = 'claude_code'): string {
  return JSON.stringify({
    schema_version: 3,
    collector_version: 3,
    agent,
    detail: 'full',
    session_id: id,
    repo: '~/work/demo',
    branch: 'main',
    models: ['m'],
    started_at: '2026-10-01T10:00:00.000Z',
    ended_at: '2026-10-01T10:05:00.000Z',
    turns: [
      { role: 'user', at: '2026-10-01T10:00:00.000Z', text: ask },
      { role: 'assistant', at: '2026-10-01T10:00:01.000Z', text: 'done', tool_calls: [] },
    ],
    totals: { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_creation_tokens: 0, reasoning_tokens: 0, cost_usd: null },
    truncated: false,
    omitted_turns: 0,
    omitted_subagent_turns: 0,
  });
}

export function upload(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'agent_log', path: `claude_code session ${id}`, body: sessionJson(id), ...over };
}

export async function testHub(opts: Partial<HubAppOptions> = {}): Promise<TestHub> {
  const dir = mkdtempSync(join(tmpdir(), 'agentlog-hub-app-'));
  const store = openSqliteStore(join(dir, 'hub.db'));
  await store.migrate('2026-10-01T00:00:00.000Z');
  const tokens = { ann: newToken(), bob: newToken(), eve: newToken() };
  await store.addUser('ann', 'red', hashToken(tokens.ann), '2026-10-01T00:00:00.000Z');
  await store.addUser('bob', 'red', hashToken(tokens.bob), '2026-10-01T00:00:00.000Z');
  await store.addUser('eve', 'blue', hashToken(tokens.eve), '2026-10-01T00:00:00.000Z');
  let t = Date.UTC(2026, 9, 1, 12);
  const logs: string[] = [];
  const app = createHubApp({ store, clock: { now: () => (t += 1000) }, version: 'test', log: (l) => logs.push(l), ...opts });
  return {
    app,
    store,
    tokens,
    logs,
    request(path, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (init.token !== undefined && init.token !== null) headers.Authorization = `Bearer ${init.token}`;
      let body: string | undefined;
      if (init.body !== undefined) {
        body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
        headers['Content-Type'] ??= 'application/json';
      }
      return Promise.resolve(
        app.request(`http://hub.test${path}`, { method: init.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) }),
      );
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test hub on a real socket on 127.0.0.1 for each test of the file: `hub` and its `base` URL. */
export function socketHubPerTest(): { readonly hub: TestHub; readonly base: string } {
  let hub: TestHub | undefined;
  let server: Server | undefined;
  beforeEach(async () => {
    hub = await testHub();
    server = await listenHub(hub.app.fetch, '127.0.0.1', 0);
  });
  afterEach(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await hub?.close();
  });
  return {
    get hub() {
      if (hub === undefined) throw new Error('the hub starts before each test');
      return hub;
    },
    get base() {
      if (server === undefined) throw new Error('the hub starts before each test');
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}
