// `agentlog status`: what is allowed at which level, how many sessions each path covers, which hub,
// and what the last sync did.
import type { CliContext } from '../context.js';
import { flag, UsageError, type ParsedArgs } from '../args.js';
import { readKnownProjects } from '../../scan/known-projects.js';
import { ScanCache } from '../../scan/scan-cache.js';
import { readLogin } from '../../sync/hub/login-file.js';
import { readLastSync } from '../../sync/last-sync.js';
import { cachedRealPath, syncPaths } from '../../sync/settings.js';
import { coveredSessions } from '../../sync/status.js';
import { loadAllow } from './allow.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError('status takes no arguments');
  const paths = syncPaths(ctx.lookup, ctx.stateRoot);
  const { list } = await loadAllow(ctx);
  const login = await readLogin(paths.loginFile);
  const last = await readLastSync(paths.lastSync);
  const cache = await ScanCache.open(ctx.stateRoot, ctx.version);
  const covered = await coveredSessions(await ctx.agents(), list, cachedRealPath(), cache, readKnownProjects(ctx.stateRoot));
  const allowed = [...list.keys()].sort().map((path) => ({ path, detail: list.get(path)!, sessions: covered.perRoot.get(path) ?? 0 }));
  if (flag(args, 'json')) {
    ctx.stdout.write(
      `${JSON.stringify({
        allowed,
        sessions: covered.sessions,
        opted_in: covered.optedIn,
        hub: login?.hub ?? null,
        last_sync: last,
        config: paths.allowFile,
      })}\n`,
    );
    return 0;
  }
  const lines: string[] = [];
  if (allowed.length === 0) lines.push('Nothing is allowed: agentlog allow [path] opts a repository in.');
  else {
    lines.push('Allowed:');
    for (const a of allowed) lines.push(`  ${a.path}  ${a.detail}  ${a.sessions} session${a.sessions === 1 ? '' : 's'}`);
  }
  lines.push(`${covered.optedIn} of ${covered.sessions} sessions opted in.`);
  lines.push(login === null ? 'Hub: none (agentlog login --hub URL --token-stdin)' : `Hub: ${login.hub}`);
  if (last !== null)
    lines.push(
      `Last sync: ${last.at} to ${last.hub}: ${last.uploaded} uploaded, ${last.unchanged} unchanged, ${last.skipped} skipped, ${last.failed} failed`,
    );
  lines.push(`Opt-in file: ${paths.allowFile}`);
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
