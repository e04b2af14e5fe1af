// One line of a Pi session file narrowed to what the record and the message index read. Fields
// may be missing or drift; an unknown entry type is kept as `other` so the tree stays whole.
import { arr, asArray, asObject, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { clipOutput } from '../../record/clip.js';
import { emptyTotals, type Totals } from '../../record/types.js';

export interface PiHeader {
  id: string | undefined;
  cwd: string | undefined;
  at: string | null;
  version: number | undefined;
}

export interface PiToolCall {
  id: string;
  name: string;
  args: JsonObject | undefined;
}

export interface PiPart {
  kind: 'text' | 'thinking';
  text: string;
}

export type PiBody =
  | { type: 'user'; text: string }
  /** A shell command the person ran with `!` (`bashExecution`): their own action, kept like a prompt. */
  | { type: 'bash'; command: string }
  | {
      type: 'assistant';
      parts: PiPart[];
      calls: PiToolCall[];
      model: string | undefined;
      usage: Totals | undefined;
      stopReason: string | undefined;
      errorMessage: string | undefined;
    }
  | { type: 'toolResult'; toolCallId: string; output: string; exitCode: number | undefined; isError: boolean }
  | { type: 'compaction' }
  | { type: 'branch_summary'; summary: string }
  | { type: 'other' };

export interface PiEntry {
  /** 1-based line in the file. */
  line: number;
  id: string | undefined;
  parentId: string | undefined;
  /** The entry's timestamp as written, else the message's epoch ms as ISO. */
  at: string | null;
  body: PiBody;
}

function isoOf(value: unknown): string | null {
  if (typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))) return value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  return null;
}

/** The header line (`{"type":"session", …}`), or undefined for any other line. */
export function headerOf(o: JsonObject): PiHeader | undefined {
  if (str(o, 'type') !== 'session') return undefined;
  return { id: text(o, 'id'), cwd: text(o, 'cwd'), at: isoOf(o['timestamp']), version: num(o, 'version') };
}

/** Text parts of a content value joined with no separator (Pi streams one message as parts). */
export function contentText(value: unknown): string {
  if (typeof value === 'string') return value;
  let out = '';
  for (const raw of asArray(value) ?? []) {
    const part = asObject(raw);
    if (str(part, 'type') === 'text') out += str(part, 'text') ?? '';
  }
  return out;
}

/** Pi's per-message usage: input, output, cacheRead, cacheWrite and cost.total in dollars. */
export function usageOf(value: unknown): Totals | undefined {
  const u = asObject(value);
  if (u === undefined) return undefined;
  const t = emptyTotals();
  t.input_tokens = num(u, 'input') ?? 0;
  t.output_tokens = num(u, 'output') ?? 0;
  t.cache_read_tokens = num(u, 'cacheRead') ?? 0;
  t.cache_creation_tokens = num(u, 'cacheWrite') ?? 0;
  const cost = obj(u, 'cost');
  t.cost_usd = num(cost, 'total') ?? (typeof u['cost'] === 'number' ? (num(u, 'cost') ?? null) : null);
  return t;
}

/** Pi's bash tool ends a failed run's output with "Command exited with code N". */
export function exitCodeOf(output: string): number | undefined {
  const m = /Command exited with code (-?\d+)/.exec(output.slice(-512));
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function assistantBody(m: JsonObject): PiBody {
  const parts: PiPart[] = [];
  const calls: PiToolCall[] = [];
  const content = m['content'];
  if (typeof content === 'string' && content !== '') parts.push({ kind: 'text', text: content });
  for (const raw of arr(m, 'content') ?? []) {
    const block = asObject(raw);
    switch (str(block, 'type')) {
      case 'text': {
        const t = str(block, 'text') ?? '';
        if (t.trim() !== '') parts.push({ kind: 'text', text: t });
        break;
      }
      case 'thinking': {
        // Reasoning in the clear only: a redacted block carries no readable text.
        const t = str(block, 'thinking') ?? '';
        if (t.trim() !== '' && block?.['redacted'] !== true) parts.push({ kind: 'thinking', text: t });
        break;
      }
      case 'toolCall': {
        const id = text(block, 'id');
        const name = text(block, 'name');
        if (id !== undefined && name !== undefined) calls.push({ id, name, args: obj(block, 'arguments') });
        break;
      }
      default:
        break;
    }
  }
  return {
    type: 'assistant',
    parts,
    calls,
    model: text(m, 'model'),
    usage: usageOf(m['usage']),
    stopReason: text(m, 'stopReason'),
    errorMessage: text(m, 'errorMessage'),
  };
}

function messageBody(m: JsonObject | undefined, full: boolean): PiBody {
  if (m === undefined) return { type: 'other' };
  switch (str(m, 'role')) {
    case 'user':
      return { type: 'user', text: contentText(m['content']) };
    case 'assistant':
      return assistantBody(m);
    case 'toolResult': {
      const toolCallId = text(m, 'toolCallId');
      if (toolCallId === undefined) return { type: 'other' };
      // Only the full detail level shows output and exit codes: below it, the output is not joined.
      const output = full ? contentText(m['content']) : '';
      return {
        type: 'toolResult',
        toolCallId,
        output: full ? clipOutput(output) : '',
        exitCode: full ? exitCodeOf(output) : undefined,
        isError: m['isError'] === true,
      };
    }
    case 'bashExecution': {
      const command = str(m, 'command') ?? '';
      return command.trim() === '' ? { type: 'other' } : { type: 'bash', command };
    }
    default:
      // Custom and hook messages: machinery, not turns.
      return { type: 'other' };
  }
}

/** Narrows one non-header line; without `full`, a tool result's output is left empty. */
export function entryOf(o: JsonObject, line: number, full = true): PiEntry {
  const message = obj(o, 'message');
  let body: PiBody;
  switch (str(o, 'type')) {
    case 'message':
      body = messageBody(message, full);
      break;
    case 'compaction':
      body = { type: 'compaction' };
      break;
    case 'branch_summary':
      body = { type: 'branch_summary', summary: str(o, 'summary') ?? '' };
      break;
    default:
      body = { type: 'other' };
  }
  const parentId = o['parentId'];
  return {
    line,
    id: text(o, 'id'),
    parentId: typeof parentId === 'string' && parentId !== '' ? parentId : undefined,
    at: isoOf(o['timestamp']) ?? isoOf(message?.['timestamp']),
    body,
  };
}

/** How a `!` command reads as a user turn and in the index, as Claude Code's `!` commands do. */
export function bashTurnText(command: string): string {
  return `! ${command.trim()}`;
}
