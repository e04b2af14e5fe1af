// `agentlog hub serve [--db URL] [--listen 127.0.0.1:7421]`: migrates the database, then serves the
// hub's API (and its web app when built) until SIGINT/SIGTERM. Several may serve one PostgreSQL.
import type { CliContext } from '../context.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flag, flagValue, UsageError, type ParsedArgs } from '../args.js';
import { hubDbUrl } from '../hub-db.js';

/** `host:port`, `[v6]:port` or `:port`; the port may be 0 (any free one). */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]*)):(\d{1,5})$/.exec(value);
  const port = Number(m?.[3]);
  if (m === null || port > 65_535) throw new UsageError(`--listen takes host:port (e.g. 127.0.0.1:7421), not "${value}"`);
  const host = m[1] ?? (m[2] === '' || m[2] === undefined ? '127.0.0.1' : m[2]);
  return { host, port };
}

/** The hub web app's build beside the bundle (dist/web-hub), or null before it is built. */
function hubWebRoot(): string | null {
  for (const rel of ['../web-hub/', '../../web-hub/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return null;
}

const loopback = new Set(['127.0.0.1', 'localhost', '::1']);

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const { host, port } = parseListen(flagValue(args, 'listen') ?? '127.0.0.1:7421');
  const url = hubDbUrl(args, ctx);
  // Loaded here: every other command would otherwise compile the HTTP stack and the drivers first.
  const { openHubStore } = await import('../../hub/open-store.js');
  const { runHub } = await import('../../hub/server.js');
  const store = await openHubStore(url, new Date(ctx.now()).toISOString());
  const log = (line: string): void => ctx.stderr.write(`agentlog hub: ${line}\n`);
  if (!loopback.has(host)) log(`listening beyond loopback on plain HTTP: put TLS in front of it (and pass --trust-proxy)`);
  await runHub({
    store,
    clock: { now: ctx.now },
    version: ctx.version,
    host,
    port,
    webRoot: hubWebRoot(),
    log,
    trustProxy: flag(args, 'trust-proxy'),
    stop: ctx.interrupted(),
    onListening: (listening) => {
      if (flag(args, 'json')) ctx.stdout.write(`${JSON.stringify({ url: listening, store: store.dialect, pid: process.pid })}\n`);
      log(`serving ${listening} (${store.dialect})`);
    },
  });
  return 0;
}
