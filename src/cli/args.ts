// A small, strict argument parser: flags are declared once per command; anything undeclared is an error.
import { AgentlogError } from '../errors.js';

export interface FlagSpec {
  name: string;
  /** One-letter alias, e.g. `n` for `-n`. */
  short?: string;
  /** A flag that takes a value (`--limit 5`, `--limit=5`); otherwise a boolean switch. */
  value?: string;
  /** May be given more than once (values collected in order). */
  repeat?: boolean;
  help: string;
}

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string[]>;
}

export class UsageError extends AgentlogError<'Usage'> {
  constructor(message: string) {
    super('Usage', 'usage', message);
    this.name = 'UsageError';
  }
}

/** Flags every command accepts. */
export const commonFlags: FlagSpec[] = [
  { name: 'json', help: 'print one JSON document on stdout and nothing else' },
  { name: 'help', short: 'h', help: 'show this help' },
];

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[], command: string): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short as string, s]));
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  const add = (spec: FlagSpec, value: string): void => {
    const list = flags.get(spec.name) ?? [];
    if (list.length > 0 && spec.repeat !== true) throw new UsageError(`--${spec.name} is given twice`);
    list.push(value);
    flags.set(spec.name, list);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
      spec = byName.get(name);
      if (spec === undefined) throw new UsageError(`unknown flag --${name} for \`agentlog ${command}\` (see agentlog ${command} --help)`);
    } else if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
      spec = byShort.get(arg.slice(1, 2));
      if (spec === undefined) throw new UsageError(`unknown flag ${arg} for \`agentlog ${command}\` (see agentlog ${command} --help)`);
      if (arg.length > 2) inline = arg.slice(2);
    } else {
      positionals.push(arg);
      continue;
    }
    if (spec.value === undefined) {
      if (inline !== undefined) throw new UsageError(`--${spec.name} takes no value`);
      add(spec, 'true');
    } else {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${spec.name} needs a value (${spec.value})`);
      add(spec, value);
    }
  }
  return { positionals, flags };
}

export function flag(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

export function flagValue(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.[0];
}

export function flagValues(args: ParsedArgs, name: string): string[] {
  return args.flags.get(name) ?? [];
}

/** A whole number within [min, max], or a UsageError naming the flag. */
export function intFlag(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const raw = flagValue(args, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw)) throw new UsageError(`--${name} takes a whole number, not "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}`);
  return n;
}

export function formatFlags(specs: readonly FlagSpec[]): string {
  const rows = specs.map((s) => {
    const left = `${s.short !== undefined ? `-${s.short}, ` : '    '}--${s.name}${s.value !== undefined ? ` <${s.value}>` : ''}`;
    return [left, s.help] as const;
  });
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}`).join('\n');
}
