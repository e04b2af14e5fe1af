// What a CLI command is: its flags, its help, and a run function that returns the exit code.
import type { ParsedArgs, FlagSpec } from './args.js';
import type { CliContext } from './context.js';

export interface Command {
  name: string;
  summary: string;
  /** e.g. `show <file-or-session-id> [--json | --markdown]` */
  usage: string;
  flags: FlagSpec[];
  run(args: ParsedArgs, ctx: CliContext): Promise<number>;
}

export { exitCodes } from '../errors.js';
