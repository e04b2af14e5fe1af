// `agentlog login --hub URL [--token-stdin]`: checks the token against the hub, then keeps both in
// `<config>/hub.json` (0600). The token is read from stdin, never from argv.
import type { CliContext } from '../context.js';
import { flag, flagValue, UsageError, type ParsedArgs } from '../args.js';
import { SyncError } from '../../sync/allow/errors.js';
import { HubClient } from '../../sync/hub/client.js';
import { writeLogin } from '../../sync/hub/login-file.js';
import { syncPaths } from '../../sync/settings.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (chunks.reduce((n, c) => n + c.length, 0) > 4096) throw new UsageError('the token on stdin is longer than 4 KiB');
  }
  return Buffer.concat(chunks).toString('utf8');
}

function hubUrl(raw: string | undefined): string {
  if (raw === undefined) throw new UsageError('login needs --hub URL (the address `agentlog hub serve` printed)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--hub is not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--hub must be an http:// or https:// URL');
  if (url.username !== '' || url.password !== '') throw new UsageError('--hub must not carry credentials: the token goes on stdin');
  return url.toString().replace(/\/+$/, '');
}

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError('login takes no positional arguments: the token goes on stdin, never argv');
  const hub = hubUrl(flagValue(args, 'hub'));
  if (process.stdin.isTTY === true && !flag(args, 'token-stdin'))
    ctx.stderr.write('Paste the token (from `agentlog hub user add`), then Ctrl-D:\n');
  const token = (await readStdin()).trim();
  if (token === '' || /\s/.test(token)) throw new UsageError('no token on stdin (one line, the token alone)');
  const client = new HubClient({
    url: hub,
    token,
    userAgent: `agentlog/${ctx.version}`,
    retry: { attempts: 2, requestTimeoutMs: 15_000 },
  });
  const answer = await client.request('GET', '/v1/session');
  if (answer.status === 401 || answer.status === 403) throw new SyncError('HubRefused', 'usage', `the hub at ${hub} refused that token`);
  if (answer.status !== 200) throw new SyncError('HubRefused', 'failed', `the hub at ${hub} answered ${answer.status} to a sign-in check`);
  const who = answer.body as { user?: unknown; workspace?: unknown };
  const path = syncPaths(ctx.lookup, ctx.stateRoot).loginFile;
  writeLogin(path, { hub, token });
  const user = typeof who.user === 'string' ? who.user : null;
  const workspace = typeof who.workspace === 'string' ? who.workspace : null;
  if (flag(args, 'json')) ctx.stdout.write(`${JSON.stringify({ hub, user, workspace, config: path })}\n`);
  else ctx.stdout.write(`Signed in to ${hub} as ${user ?? '?'} (workspace ${workspace ?? '?'}).\nSaved to ${path}\n`);
  return 0;
}
