// Running the hub: bind, announce, serve until asked to stop, then stop accepting, let in-flight
// requests finish (each ingest is one transaction either way), and close the database.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Clock } from '../fs/clock.js';
import { createHubApp } from './app.js';
import type { HubStore } from './store.js';

export interface RunHubOptions {
  store: HubStore;
  clock: Clock;
  version: string;
  host: string;
  port: number;
  webRoot: string | null;
  log: (line: string) => void;
  trustProxy?: boolean;
  /** Resolves with the signal name when the hub should stop. */
  stop: Promise<string>;
  onListening: (url: string) => void;
}

export function listenHub(fetch: (req: Request) => Response | Promise<Response>, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }) as Server;
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

export async function runHub(opts: RunHubOptions): Promise<void> {
  const app = createHubApp({
    store: opts.store,
    clock: opts.clock,
    version: opts.version,
    webRoot: opts.webRoot,
    log: opts.log,
    trustProxy: opts.trustProxy === true,
  });
  // A handler outlives its connection when the client goes away mid-request (a load run that ends),
  // and it is still using the store: the store closes only once every handler has returned.
  const inFlight = new Set<Promise<Response>>();
  const fetch = (req: Request): Promise<Response> => {
    const handled = Promise.resolve(app.fetch(req));
    inFlight.add(handled);
    const done = (): void => {
      inFlight.delete(handled);
    };
    handled.then(done, done);
    return handled;
  };
  const server = await listenHub(fetch, opts.host, opts.port);
  const port = (server.address() as AddressInfo).port;
  const shown = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  opts.onListening(`http://${shown}:${port}/`);
  const signal = await opts.stop;
  opts.log(`hub stopping (${signal})`);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 10_000);
  force.unref();
  await closed;
  clearTimeout(force);
  await Promise.allSettled([...inFlight]);
  await opts.store.close();
}
