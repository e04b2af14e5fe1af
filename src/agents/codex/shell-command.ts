// The command line of a Codex shell call as a person would type it: `exec_command`'s `cmd`,
// `shell_command`'s string, or `shell`'s argv with the `bash -lc` wrapper taken off. Models also
// apply patches through the shell (`apply_patch <<'EOF'`); those read as the patch.
import { asArray, text, type JsonObject } from '../../json/narrow.js';

export interface ShellInput {
  format: 'shell' | 'diff';
  input: string;
}

const shellBinary = /^(?:\S*\/)?(?:ba|z|da|k)?sh$/;
const safeArg = /^[\w@%+=:,./-]+$/;

function quoteArg(arg: string): string {
  return safeArg.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Joins argv, dropping a `bash -lc <script>` wrapper so the script itself is the command. */
export function joinArgv(argv: readonly string[]): string {
  const [bin, flag, script] = argv;
  if (argv.length === 3 && bin !== undefined && script !== undefined && shellBinary.test(bin) && (flag === '-lc' || flag === '-c'))
    return script;
  return argv.map(quoteArg).join(' ');
}

/** The patch inside a shell-invoked apply_patch, if the command is one. */
function patchOf(command: string): string | undefined {
  const start = command.indexOf('*** Begin Patch');
  if (start === -1 || !/^\s*(?:cd [^\n;&]+&&\s*)?apply_patch\b/.test(command)) return undefined;
  const endMarker = command.indexOf('*** End Patch', start);
  return endMarker === -1 ? command.slice(start) : command.slice(start, endMarker + '*** End Patch'.length);
}

/** Reads `cmd` (string) or `command` (string or argv) from a shell tool's arguments. */
export function shellInput(args: JsonObject | undefined): ShellInput | undefined {
  if (args === undefined) return undefined;
  const argv = asArray(args.command)?.filter((a): a is string => typeof a === 'string');
  let command: string | undefined;
  if (argv !== undefined && argv.length > 0) {
    if (argv[0] === 'apply_patch' && argv.length === 2 && argv[1] !== undefined) return { format: 'diff', input: argv[1] };
    command = joinArgv(argv);
  } else {
    command = text(args, 'cmd') ?? text(args, 'command');
  }
  if (command === undefined) return undefined;
  const patch = patchOf(command);
  return patch !== undefined ? { format: 'diff', input: patch } : { format: 'shell', input: command };
}
