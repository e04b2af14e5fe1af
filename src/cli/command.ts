// What a CLI command is: its flags, its help, its subcommands, and a run function that returns the exit code.
import type { FlagSpec, ParsedArgs } from './args.js';
import type { CliContext } from './context.js';

export interface Command {
  name: string;
  summary: string;
  /** e.g. `show <file-or-session-id> [--json | --markdown]` (the whole path for a subcommand: `hub user add <name>`). */
  usage: string;
  /** Its own flags; `--json` and `--help` are added when missing. */
  flags: FlagSpec[];
  /** Subcommands (`hub user add NAME`): the next word picks one, which parses its own flags. */
  subcommands?: readonly Command[];
  /** Absent only for a command that is a group of subcommands (then its help is printed). */
  run?(args: ParsedArgs, ctx: CliContext): Promise<number>;
}

export { exitCodes } from '../errors.js';
