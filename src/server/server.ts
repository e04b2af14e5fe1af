// Running the server: bind, announce, sweep in the background, serve until asked to stop, then
// close in order — stop accepting, let in-flight sweeps finish (whole or rolled back), close the
// remaining connections, release the port and the lock.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import type { SharingFiles } from './sharing.js';
import { announce } from './instance-lock.js';
import type { ServerStore } from './store.js';
import { Sweeper } from './sweeper.js';
import { SweepCaches } from '../search/sweep-caches.js';

export interface RunOptions {
  store: ServerStore;
  token: string;
  host: string;
  port: number;
  webRoot: string | null;
  userHome: string;
  /** Sync's files, for the dashboard's sharing state and allow/deny. */
  sharing?: SharingFiles;
  sweep: boolean;
  intervalMs: number;
  /** Resolves with the signal name when the server should stop. */
  stop: Promise<string>;
  onListening: (url: string) => void;
}

function listen(fetch: (req: Request) => Response | Promise<Response>, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }) as Server;
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

/** Keeps the list and index view fresh after sweeps, at most every `gapMs` (a trailing run catches the last). */
function throttled(fn: () => Promise<void>, gapMs: number): () => void {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (timer !== undefined) return;
    const wait = Math.max(0, last + gapMs - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      void fn().catch(() => undefined);
    }, wait);
    timer.unref();
  };
}

export async function runServer(opts: RunOptions): Promise<void> {
  const { store } = opts;
  // With --port 0 the port is known only once bound, and the Host check needs it: the app is built
  // right after binding, before the first request can arrive.
  let app: ReturnType<typeof createApp> | null = null;
  const server = await listen((req) => (app as ReturnType<typeof createApp>).fetch(req), opts.host, opts.port);
  const port = (server.address() as AddressInfo).port;
  app = createApp({
    store,
    token: opts.token,
    host: opts.host,
    port,
    webRoot: opts.webRoot,
    userHome: opts.userHome,
    ...(opts.sharing === undefined ? {} : { sharing: opts.sharing }),
  });
  const shown = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const url = `http://${shown}:${port}/?token=${opts.token}`;
  await announce(store.stateRoot, { pid: process.pid, url, started_at: new Date(store.now()).toISOString() });
  store.log.write(`start pid ${process.pid} on ${shown}:${port} (version ${store.version}, sweep ${opts.sweep ? 'on' : 'off'})`);
  opts.onListening(url);

  const refreshIndex = throttled(() => store.index.refresh(), 200);
  const refreshList = throttled(() => store.list.refresh(), 10_000);
  await store.index.refresh().catch(() => undefined);
  void store.list.refresh().catch((error: unknown) => store.log.write(`session list failed: ${String(error)}`));
  if (opts.sweep) {
    const sweeper = new Sweeper({
      indexRoot: store.searchRoot,
      vendorAgents: store.vendorAgents,
      readableAgents: store.readableAgents,
      discovery: new SweepCaches(store.stateRoot, store.version, store.now),
      catalog: () => store.sources.allCatalog(),
      now: store.now,
      intervalMs: opts.intervalMs,
      log: (line) => store.log.write(line),
      onSwept: () => {
        refreshIndex();
        refreshList();
      },
    });
    store.sweeper = sweeper;
    void sweeper.start();
  }

  const signal = await opts.stop;
  store.log.write(`stop (${signal}): finishing in-flight work`);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await store.sweeper?.stop();
  // Event streams never end on their own: close what is still open once the sweeps are done.
  server.closeAllConnections();
  await closed;
  store.log.write('stopped');
}
