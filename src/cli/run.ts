// Dispatches argv to a command, prints help and version, and turns typed errors into exit codes.
import { readers } from '../agents/registry.js';
import { commonFlags, formatFlags, parseArgs } from './args.js';
import type { CliContext } from './context.js';
import type { Command } from './command.js';
import { exitCodeOf, exitCodes, isAgentlogError } from '../errors.js';
import { commands } from './commands/index.js';

function mainHelp(version: string): string {
  // Every agent's home variables come from its reader, so a new agent is listed without editing this.
  const envHelp: [string, string][] = [
    ['AGENTLOG_HOME', "agentlog's state (default ~/.agentlog)"],
    ...readers.flatMap((r) =>
      r.homeVariables.map((v): [string, string] => [
        v.name,
        `${r.displayName}${v.folder === undefined ? '' : `, in its ${v.folder}`} (default ${v.default})`,
      ]),
    ),
  ];
  const envWidth = Math.max(...envHelp.map(([name]) => name.length));
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
    '',
    'Environment:',
    ...envHelp.map(([name, what]) => `  ${name.padEnd(envWidth)}  ${what}`),
    '',
  ].join('\n');
}

function commandHelp(c: Command): string {
  return `Usage: agentlog ${c.usage}\n\n${c.summary}\n\nOptions:\n${formatFlags(c.flags)}\n`;
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
    // Only errors raised on purpose carry a code and a message meant for the user; anything else
    // (a raw OS error that escaped wrapping, a bug) is a failure, exit 1.
    const code = isAgentlogError(error) ? error.code : 'Failed';
    const message = error instanceof Error ? error.message : String(error);
    if (json) ctx.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    ctx.stderr.write(`agentlog ${command.name}: ${message}\n`);
    return exitCodeOf(error);
  }
}
