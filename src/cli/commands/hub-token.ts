// `agentlog hub token revoke NAME [--db URL] [--json]`: revokes every live token of a user; the
// hub refuses them from its next request on (tokens are looked up on every request).
import { commonFlags, flag, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { checkName, dbFlag, hubDbUrl } from '../hub-db.js';

const hubTokenRevokeCommand: Command = {
  name: 'revoke',
  summary: 'revoke every token of a hub user',
  usage: 'hub token revoke <name> [--db URL] [--json]',
  flags: [dbFlag, ...commonFlags],
  async run(args, ctx) {
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
  },
};

export const hubTokenCommand: Command = {
  name: 'token',
  summary: 'manage hub tokens',
  usage: 'hub token revoke <name> [--db URL] [--json]',
  flags: [...commonFlags],
  subcommands: [hubTokenRevokeCommand],
};
