// `agentlog serve`: one local process that keeps, indexes and serves every session (issue 11): the
// API and the dashboard on http://127.0.0.1:7420/, a keep + index sweep at start and on changes.
import type { CliContext } from '../context.js';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { flag, flagValue, intFlag, UsageError, type ParsedArgs } from '../args.js';
import { asOnlyServer } from '../../server/instance-lock.js';
import { logDir, openServeLog } from '../../server/serve-log.js';
import { loadOrCreateToken } from '../../server/token.js';
import { syncPaths } from '../../sync/settings.js';

const loopback = new Set(['127.0.0.1', 'localhost', '::1']);

/** The dashboard build beside the bundle (dist/web), or null before it is built. */
function webRoot(): string | null {
  for (const rel of ['../web/', '../../web/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${dir}index.html`)) return dir;
  }
  return null;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    spawn(cmd, [url], { detached: true, stdio: 'ignore' })
      .on('error', () => undefined)
      .unref();
  } catch {
    // No browser opener: the URL is on stderr.
  }
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  const port = intFlag(args, 'port', 0, 65_535) ?? 7420;
  const host = flagValue(args, 'host') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host)) throw new UsageError(`--host must be an address or a host name, not "${host}"`);
  const intervalS = intFlag(args, 'interval', 1, 86_400) ?? 30;
  if (!loopback.has(host))
    ctx.stderr.write(
      `warning: --host ${host} is not a loopback address: anyone who can reach it and has the token can read every session\n`,
    );
  // Loaded here, not at start-up: every other command would otherwise compile the HTTP stack first.
  const { runServer } = await import('../../server/server.js');
  const { openStore } = await import('../../server/store.js');
  const token = await loadOrCreateToken(ctx.stateRoot);
  return asOnlyServer(ctx.stateRoot, async () => {
    const log = openServeLog({ dir: logDir(ctx.stateRoot), now: ctx.now });
    const store = openStore({
      stateRoot: ctx.stateRoot,
      userHome: ctx.userHome,
      version: ctx.version,
      agents: await ctx.agents(),
      ...(ctx.projectHomes === undefined ? {} : { learnedHomes: ctx.projectHomes }),
      now: ctx.now,
      log,
    });
    await runServer({
      store,
      token,
      host,
      port,
      webRoot: webRoot(),
      userHome: ctx.userHome,
      sharing: syncPaths(ctx.lookup, ctx.stateRoot),
      sweep: !flag(args, 'no-sweep'),
      intervalMs: intervalS * 1000,
      stop: ctx.interrupted(),
      onListening: (url) => {
        ctx.stderr.write(`agentlog serve: open ${url}\n`);
        if (flag(args, 'open')) openBrowser(url);
      },
    });
    return 0;
  });
}
