// Strict argument parsing on `node:util` `parseArgs`: flags are declared once per command; anything
// undeclared is an error.
import { parseArgs as parseNodeArgs } from 'node:util';
import { AgentlogError, reason } from '../errors.js';

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
  constructor(message: string, options?: { cause?: unknown }) {
    super('Usage', 'usage', message, options);
    this.name = 'UsageError';
  }
}

/** Flags every command accepts. */
export const commonFlags: FlagSpec[] = [
  { name: 'json', help: 'print one JSON document on stdout and nothing else' },
  { name: 'help', short: 'h', help: 'show this help' },
];

type NodeOptions = Record<string, { type: 'boolean' | 'string'; multiple: boolean; short?: string }>;

function nodeOptions(specs: readonly FlagSpec[]): NodeOptions {
  const options: NodeOptions = {};
  for (const s of specs)
    options[s.name] = {
      type: s.value === undefined ? 'boolean' : 'string',
      multiple: s.repeat === true,
      ...(s.short !== undefined ? { short: s.short } : {}),
    };
  return options;
}

/**
 * A flag that takes a value takes the next word whatever it starts with (`-n -3` is a page size
 * of -3 for the command to judge), as it always has; `node:util` would call that ambiguous, so
 * such pairs are handed to it joined (`--lines=-3`).
 */
function joinValues(argv: readonly string[], specs: readonly FlagSpec[]): string[] {
  const valued = new Map<string, FlagSpec>();
  for (const s of specs) {
    if (s.value === undefined) continue;
    valued.set(`--${s.name}`, s);
    if (s.short !== undefined) valued.set(`-${s.short}`, s);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const spec = valued.get(arg);
    const next = argv[i + 1];
    if (spec !== undefined && next !== undefined) {
      out.push(`--${spec.name}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The message for what `node:util` refused, naming the flag as the user typed it. */
function refusal(argv: readonly string[], specs: readonly FlagSpec[], command: string, fallback: string): string {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const { tokens } = parseNodeArgs({ args: [...argv], options: nodeOptions(specs), strict: false, allowPositionals: true, tokens: true });
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = byName.get(t.name);
    if (spec === undefined) return `unknown flag ${t.rawName} for \`agentlog ${command}\` (see agentlog ${command} --help)`;
    if (spec.value === undefined && t.value !== undefined) return `--${spec.name} takes no value`;
    if (spec.value !== undefined && t.value === undefined) return `--${spec.name} needs a value (${spec.value})`;
  }
  return fallback;
}

function strictParse(args: string[], specs: readonly FlagSpec[]) {
  return parseNodeArgs({ args, options: nodeOptions(specs), strict: true, allowPositionals: true, tokens: true });
}

/** Parses a command's argv strictly against its declared flags (with `node:util` `parseArgs`). */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[], command: string): ParsedArgs {
  const args = joinValues(argv, specs);
  let parsed: ReturnType<typeof strictParse>;
  try {
    parsed = strictParse(args, specs);
  } catch (error) {
    throw new UsageError(refusal(args, specs, command, reason(error)), { cause: error });
  }
  const flags = new Map<string, string[]>();
  for (const t of parsed.tokens) {
    if (t.kind !== 'option') continue;
    const spec = specs.find((s) => s.name === t.name);
    if (spec === undefined) continue;
    const list = flags.get(spec.name) ?? [];
    if (list.length > 0 && spec.repeat !== true) throw new UsageError(`--${spec.name} is given twice`);
    list.push(t.value ?? 'true');
    flags.set(spec.name, list);
  }
  return { positionals: parsed.positionals, flags };
}

/** Whether `--json` was asked for, read leniently (for an error met before the strict parse). */
export function jsonRequested(argv: readonly string[]): boolean {
  const { values } = parseNodeArgs({ args: [...argv], options: { json: { type: 'boolean' } }, strict: false, allowPositionals: true });
  return values.json === true;
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
