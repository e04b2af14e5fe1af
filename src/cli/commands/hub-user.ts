// `agentlog hub user add NAME --workspace W [--db URL] [--json]`: creates the user (and the
// workspace when new) on the database directly, migrating it first if needed, and prints the new
// token once; only its SHA-256 is stored. An existing user gets a fresh token beside the old ones.
import type { CliContext } from '../context.js';
import { flag, flagValue, UsageError, type ParsedArgs } from '../args.js';
import { checkName, hubDbUrl } from '../hub-db.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError('hub user add takes one name');
  const name = checkName('user name', args.positionals[0]);
  const workspace = checkName('workspace (--workspace W)', flagValue(args, 'workspace'));
  const { openHubStore } = await import('../../hub/open-store.js');
  const { hashToken, newToken } = await import('../../hub/tokens.js');
  const now = new Date(ctx.now()).toISOString();
  const store = await openHubStore(hubDbUrl(args, ctx), now);
  try {
    const token = newToken();
    const added = await store.addUser(name, workspace, hashToken(token), now);
    if (flag(args, 'json')) ctx.stdout.write(`${JSON.stringify({ user: added.user, workspace: added.workspace, token })}\n`);
    else {
      const what = added.createdUser ? `created user ${name}` : `new token for ${name}`;
      ctx.stdout.write(`${what} in workspace ${workspace}${added.createdWorkspace ? ' (new)' : ''}\n`);
      ctx.stdout.write(`token: ${token}\n`);
      ctx.stderr.write('this token is shown once: hand it to the user now (the hub keeps only its hash)\n');
    }
    return 0;
  } finally {
    await store.close();
  }
}
