// One line of a Factory Droid session file narrowed to what the record and the index read: the
// `session_start` header, or a `message` with its content blocks.
import { arr, asObject, bool, obj, str, text, type JsonObject } from '../../json/narrow.js';

export interface DroidStart {
  id: string | undefined;
  title: string | undefined;
  cwd: string | undefined;
  /** Set on a sub-agent's own session: the session and the tool call that launched it. */
  callingSessionId: string | undefined;
  callingToolUseId: string | undefined;
}

export type DroidBlock =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'tool_use'; id: string | undefined; name: string; input: JsonObject }
  | { kind: 'tool_result'; toolUseId: string | undefined; output: string; isError: boolean };

export interface DroidMessage {
  line: number;
  id: string | undefined;
  at: string | null;
  role: string;
  model: string | undefined;
  blocks: DroidBlock[];
}

export function startOf(o: JsonObject | undefined): DroidStart | undefined {
  if (o === undefined || o['type'] !== 'session_start') return undefined;
  return {
    id: text(o, 'id') ?? text(o, 'sessionId'),
    title: text(o, 'sessionTitle') ?? text(o, 'title'),
    cwd: text(o, 'cwd'),
    callingSessionId: text(o, 'callingSessionId'),
    callingToolUseId: text(o, 'callingToolUseId'),
  };
}

/** A tool result's text: a string, or its text blocks joined. */
function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  const out: string[] = [];
  for (const raw of Array.isArray(value) ? value : []) {
    const t = str(asObject(raw), 'text');
    if (t !== undefined) out.push(t);
  }
  return out.join('\n');
}

function blockOf(raw: unknown): DroidBlock | undefined {
  const b = asObject(raw);
  switch (str(b, 'type')) {
    case 'text': {
      const t = str(b, 'text');
      return t === undefined ? undefined : { kind: 'text', text: t };
    }
    case 'thinking': {
      const t = str(b, 'thinking');
      return t === undefined ? undefined : { kind: 'thinking', text: t };
    }
    case 'tool_use': {
      const name = text(b, 'name');
      return name === undefined ? undefined : { kind: 'tool_use', id: text(b, 'id'), name, input: obj(b, 'input') ?? {} };
    }
    case 'tool_result':
      // Real files write the Anthropic spelling; Factory's protocol schema names them in camelCase.
      return {
        kind: 'tool_result',
        toolUseId: text(b, 'tool_use_id') ?? text(b, 'toolUseId'),
        output: resultText(b?.['content']),
        isError: bool(b, 'is_error') === true || bool(b, 'isError') === true,
      };
    default:
      return undefined;
  }
}

/** A `message` line; undefined for any other line. */
export function messageOf(o: JsonObject, line: number): DroidMessage | undefined {
  if (o['type'] !== 'message') return undefined;
  const m = obj(o, 'message');
  const role = str(m, 'role');
  if (m === undefined || role === undefined) return undefined;
  const content = m['content'];
  const blocks: DroidBlock[] = [];
  if (typeof content === 'string') blocks.push({ kind: 'text', text: content });
  for (const raw of arr(m, 'content') ?? []) {
    const b = blockOf(raw);
    if (b !== undefined) blocks.push(b);
  }
  return { line, id: text(o, 'id'), at: text(o, 'timestamp') ?? null, role, model: text(m, 'model'), blocks };
}

const reminder = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** What the person typed: the user message's text without the `<system-reminder>` blocks Droid injects. */
export function typedText(m: DroidMessage): string {
  return m.blocks
    .filter((b): b is Extract<DroidBlock, { kind: 'text' }> => b.kind === 'text')
    .map((b) => b.text.replace(reminder, ''))
    .join('\n')
    .trim();
}

/** The assistant's prose: its text blocks. */
export function saidText(m: DroidMessage): string {
  return m.blocks
    .filter((b): b is Extract<DroidBlock, { kind: 'text' }> => b.kind === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
}
