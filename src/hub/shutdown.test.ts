// Stopping the hub: a request whose client went away is still running in the store, so the store
// may only close once that handler has finished (seen after a load run: "Cannot use a pool after
// calling end on the pool", logged by requests the closed pool refused).
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runHub } from './server.js';
import { openSqliteStore } from './sqlite/index.js';
import type { HubStore } from './store.js';
import { hashToken, newToken } from './tokens.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

it('closes the store only after a request whose client disconnected has finished with it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentlog-hub-stop-'));
  dirs.push(dir);
  const store = openSqliteStore(join(dir, 'hub.db'));
  await store.migrate('2026-10-01T00:00:00.000Z');
  const token = newToken();
  await store.addUser('ann', 'red', hashToken(token), '2026-10-01T00:00:00.000Z');

  // The real store, with its listing held at a gate so the request is in flight when the stop comes.
  const entered = deferred();
  const gate = deferred();
  const finished = deferred();
  let listingError: unknown = null;
  const held = new Proxy(store, {
    get(target, key) {
      if (key === 'listSourcesJson') {
        return async (...args: Parameters<HubStore['listSourcesJson']>) => {
          entered.resolve();
          await gate.promise;
          try {
            return await target.listSourcesJson(...args);
          } catch (error) {
            listingError = error;
            throw error;
          } finally {
            finished.resolve();
          }
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

  const stop = deferred<string>();
  const listening = deferred<string>();
  const logs: string[] = [];
  const running = runHub({
    store: held,
    clock: { now: () => Date.UTC(2026, 9, 1, 12) },
    version: 'test',
    host: '127.0.0.1',
    port: 0,
    webRoot: null,
    log: (line) => logs.push(line),
    stop: stop.promise,
    onListening: (url) => listening.resolve(url),
  });
  const url = new URL('v1/sources', await listening.promise);
  const req = request(url, { headers: { Authorization: `Bearer ${token}` } });
  req.on('error', () => {});
  req.end();
  await entered.promise;
  req.destroy();
  stop.resolve('SIGTERM');
  await new Promise((r) => setTimeout(r, 100));
  gate.resolve();
  await Promise.all([running, finished.promise]);

  expect(listingError).toBeNull();
  expect(logs.filter((l) => l.includes('error'))).toEqual([]);
});
