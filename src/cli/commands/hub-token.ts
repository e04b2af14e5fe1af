// `agentlog hub token revoke NAME [--db URL] [--json]`: revokes every live token of a user; the
// hub refuses them from its next request on (tokens are looked up on every request).
import type { CliContext } from '../context.js';
import { flag, UsageError, type ParsedArgs } from '../args.js';
import { checkName, hubDbUrl } from '../hub-db.js';

export async function run(args: ParsedArgs, ctx: CliContext): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError('hub token revoke takes one name');
  const name = checkName('user name', args.positionals[0]);
  const { openHubStore } = await import('../../hub/open-store.js');
  const now = new Date(ctx.now()).toISOString();
  const store = await openHubStore(hubDbUrl(args, ctx), now);
  try {
    const revoked = await store.revokeTokens(name, now);
    if (flag(args, 'json')) ctx.stdout.write(`${JSON.stringify({ user: name, revoked })}\n`);
    else ctx.stdout.write(`revoked ${revoked} token${revoked === 1 ? '' : 's'} of ${name}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
