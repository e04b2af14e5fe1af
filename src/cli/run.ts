// Dispatches argv to a command (and its subcommands), prints help and version, sanitises human
// output at this one edge, and turns typed errors into exit codes.
import type { AgentReader } from '../agents/types.js';
import { commonFlags, formatFlags, jsonRequested, parseArgs, UsageError, type FlagSpec } from './args.js';
import type { CliContext } from './context.js';
import type { Command } from './command.js';
import { exitCodeOf, exitCodes, isAgentlogError } from '../errors.js';
import { commands } from './commands/index.js';
import { safeOutput } from './terminal-safe.js';

function mainHelp(version: string, registry: readonly Command[], readers: readonly AgentReader[]): string {
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
  const width = Math.max(...registry.map((c) => c.name.length));
  return [
    `agentlog ${version}: read, keep and search coding agents' session logs`,
    '',
    'Usage: agentlog <command> [options]',
    '',
    'Commands:',
    ...registry.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --json (one JSON document on stdout) and --help.',
    '',
    'Environment:',
    ...envHelp.map(([name, what]) => `  ${name.padEnd(envWidth)}  ${what}`),
    '',
  ].join('\n');
}

/** A command's flags with the common ones (`--json`, `--help`) it did not declare itself. */
function flagsOf(c: Command): FlagSpec[] {
  return [...c.flags, ...commonFlags.filter((f) => !c.flags.some((own) => own.name === f.name))];
}

function commandHelp(c: Command): string {
  const parts = [`Usage: agentlog ${c.usage}`, c.summary];
  if (c.subcommands !== undefined && c.subcommands.length > 0) {
    const width = Math.max(...c.subcommands.map((s) => s.name.length));
    parts.push(`Subcommands:\n${c.subcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`).join('\n')}`);
  }
  parts.push(`Options:\n${formatFlags(flagsOf(c))}`);
  return `${parts.join('\n\n')}\n`;
}

interface Found {
  command: Command;
  /** `hub user add`: the words that named it. */
  path: string;
  rest: string[];
}

/** Follows words down the subcommands; an unknown word where a subcommand is expected is a usage error. */
function descend(top: Command, words: readonly string[]): Found {
  let command = top;
  const path = [top.name];
  let rest = [...words];
  while (command.subcommands !== undefined && rest[0] !== undefined && !rest[0].startsWith('-')) {
    const word = rest[0];
    const sub: Command | undefined = command.subcommands.find((s) => s.name === word);
    if (sub === undefined) {
      const names = command.subcommands.map((s) => s.name).join(', ');
      throw new UsageError(`unknown subcommand "${word}" for \`agentlog ${path.join(' ')}\` (it has: ${names})`);
    }
    command = sub;
    path.push(sub.name);
    rest = rest.slice(1);
  }
  return { command, path: path.join(' '), rest };
}

/** `agentlog help hub user add`: the command those words name, if any. */
function helpTopic(words: readonly string[], registry: readonly Command[]): Command | undefined {
  const top = registry.find((c) => c.name === words[0]);
  if (top === undefined) return undefined;
  try {
    return descend(top, words.slice(1)).command;
  } catch {
    return top;
  }
}

/**
 * Runs one command line. Human output (stdout without --json, and stderr always) passes the one
 * sanitiser; --json's stdout is written exactly.
 */
export async function run(argv: readonly string[], rawCtx: CliContext, registry: readonly Command[] = commands): Promise<number> {
  const stderr = safeOutput(rawCtx.stderr, false);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? helpTopic(rest, registry) : undefined;
    if (topic !== undefined) rawCtx.stdout.write(commandHelp(topic));
    // Only the main help loads the readers: its environment list comes from them.
    else rawCtx.stdout.write(mainHelp(rawCtx.version, registry, await (await import('../agents/registry.js')).loadReaders()));
    return exitCodes.ok;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    rawCtx.stdout.write(`${rawCtx.version}\n`);
    return exitCodes.ok;
  }
  const top = registry.find((c) => c.name === name);
  if (top === undefined) {
    stderr.write(`agentlog: unknown command "${name}" (agentlog --help lists them)\n`);
    return exitCodes.usage;
  }
  let json = jsonRequested(rest);
  let label = top.name;
  try {
    const found = descend(top, rest);
    label = found.path;
    const args = parseArgs(found.rest, flagsOf(found.command), found.path);
    json = args.flags.has('json');
    const ctx: CliContext = { ...rawCtx, stderr, stdout: json ? rawCtx.stdout : safeOutput(rawCtx.stdout, rawCtx.color) };
    if (args.flags.has('help')) {
      ctx.stdout.write(commandHelp(found.command));
      return exitCodes.ok;
    }
    if (found.command.run === undefined) {
      const names = (found.command.subcommands ?? []).map((s) => s.name).join(', ');
      throw new UsageError(`\`agentlog ${found.path}\` needs a subcommand: ${names} (see agentlog ${found.path} --help)`);
    }
    return await found.command.run(args, ctx);
  } catch (error) {
    // Only errors raised on purpose carry a code and a message meant for the user; anything else
    // (a raw OS error that escaped wrapping, a bug) is a failure, exit 1.
    const code = isAgentlogError(error) ? error.code : 'Failed';
    const message = error instanceof Error ? error.message : String(error);
    if (json) rawCtx.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    stderr.write(`agentlog ${label}: ${message}\n`);
    return exitCodeOf(error);
  }
}
