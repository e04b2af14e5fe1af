// `agentlog hub …`: the team hub (issue 13): `hub serve`, `hub user add`, `hub token revoke`.
import { commonFlags } from '../args.js';
import type { Command } from '../command.js';
import { hubServeCommand } from './hub-serve.js';
import { hubTokenCommand } from './hub-token.js';
import { hubUserCommand } from './hub-user.js';

export const hubCommand: Command = {
  name: 'hub',
  summary: 'the team hub: a sources ledger, notes and search for several people, on SQLite or PostgreSQL',
  usage: 'hub <serve | user add | token revoke> [options]',
  flags: [...commonFlags],
  subcommands: [hubServeCommand, hubUserCommand, hubTokenCommand],
};
