// Dispatches argv to a command, prints help and version, and turns typed errors into exit codes.
import { commonFlags, formatFlags, parseArgs, UsageError } from './args.js';
import type { CliContext } from './context.js';
import { exitCodes, type Command } from './command.js';
import { commands } from './commands/index.js';

function mainHelp(version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `agentlog ${version}: read, keep and search coding agents' session logs`,
    '',
    'Usage: agentlog <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --json (one JSON document on stdout) and --help.',
    'Environment: AGENTLOG_HOME (state, default ~/.agentlog); agent homes from CLAUDE_CONFIG_DIR,',
    'CODEX_HOME, KIMI_CODE_HOME, PI_CODING_AGENT_DIR, INTENDANT_HOME, XDG_DATA_HOME (each with its default).',
    '',
  ].join('\n');
}

function commandHelp(c: Command): string {
  return `Usage: agentlog ${c.usage}\n\n${c.summary}\n\nOptions:\n${formatFlags(c.flags)}\n`;
}

/** Errors that carry a code are the user's to act on: print the message, exit 2. */
function codedError(error: unknown): { code: string; message: string } | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === 'string') {
    // Node's own system errors (EACCES…) also carry a code; they are failures, not usage.
    if (/^E[A-Z]+$/.test(code)) return null;
    return { code, message: error.message };
  }
  return null;
}

export async function run(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    ctx.stdout.write(topic !== undefined ? commandHelp(topic) : mainHelp(ctx.version));
    return exitCodes.ok;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    ctx.stdout.write(`${ctx.version}\n`);
    return exitCodes.ok;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    ctx.stderr.write(`agentlog: unknown command "${name}" (agentlog --help lists them)\n`);
    return exitCodes.usage;
  }
  const json = rest.includes('--json');
  try {
    const args = parseArgs(rest, command.flags.length > 0 ? command.flags : commonFlags, command.name);
    if (args.flags.has('help')) {
      ctx.stdout.write(commandHelp(command));
      return exitCodes.ok;
    }
    return await command.run(args, ctx);
  } catch (error) {
    const coded = codedError(error);
    const message = coded?.message ?? (error instanceof Error ? error.message : String(error));
    if (json) ctx.stdout.write(`${JSON.stringify({ error: { code: coded?.code ?? 'Failed', message } })}\n`);
    ctx.stderr.write(`agentlog ${command.name}: ${message}\n`);
    if (error instanceof UsageError || coded !== null) return exitCodes.usage;
    return exitCodes.failed;
  }
}
