// What the `hub` commands share: the `--db` flag, the database URL it resolves to (the flag, else
// AGENTLOG_HUB_DB, else SQLite under the state root) and the rule for user and workspace names.
import { join } from 'node:path';
import { flagValue, type FlagSpec, type ParsedArgs, UsageError } from './args.js';
import type { CliContext } from './context.js';

export const dbFlag: FlagSpec = {
  name: 'db',
  value: 'URL',
  help: 'the hub database: sqlite:PATH or postgres://user@host:port/db[?schema=S] (default AGENTLOG_HUB_DB, else sqlite:<AGENTLOG_HOME>/hub/hub.db)',
};

/** `--db`, else `AGENTLOG_HUB_DB`, else the SQLite file under the state root. */
export function hubDbUrl(args: ParsedArgs, ctx: CliContext): string {
  return flagValue(args, 'db') ?? ctx.lookup.env('AGENTLOG_HUB_DB') ?? `sqlite:${join(ctx.stateRoot, 'hub', 'hub.db')}`;
}

const nameRule = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A user or workspace name: letters, digits, `.`, `_`, `-`, at most 64. */
export function checkName(what: string, value: string | undefined): string {
  if (value === undefined) throw new UsageError(`give the ${what}`);
  if (!nameRule.test(value))
    throw new UsageError(`a ${what} is letters, digits, ".", "_" and "-" (at most 64), not "${value.slice(0, 80)}"`);
  return value;
}
