// One recorded Gemini CLI message (`messages[]` of the JSON document, or one line of the JSONL
// variant) reduced to what the record needs, with the clips applied as it is read.
import { arr, asObject, num, str, text, type JsonObject } from '../../json/narrow.js';
import { clipMessage } from '../../record/clip.js';
import { emptyTotals, type Totals, type ToolCall } from '../../record/types.js';
import { contentText, isInjectedContinue, userText } from './content.js';
import { geminiToolCall } from './tool-call.js';

export interface GeminiMessage {
  id: string;
  kind: 'user' | 'assistant' | 'event';
  at: string | null;
  text: string;
  model?: string;
  tokens?: Totals;
  thoughts: { at: string | null; text: string }[];
  toolCalls: ToolCall[];
  paths: string[];
  shellDirs: string[];
}

/** Message types of the chat recording; `model` is an older spelling of `gemini`. */
const kinds: Record<string, GeminiMessage['kind']> = {
  user: 'user',
  gemini: 'assistant',
  model: 'assistant',
  info: 'event',
  error: 'event',
  warning: 'event',
};

function tokensOf(raw: JsonObject | undefined): Totals | undefined {
  if (raw === undefined) return undefined;
  const t = emptyTotals();
  // Gemini states the prompt, the tool-use prompt, candidates and thoughts separately and `total` is
  // their sum, so the tool-use prompt counts as input. `cached` is the part of the prompt served from
  // the cache: the record counts it in `cache_read_tokens` only, never in `input_tokens` as well.
  const input = num(raw, 'input') ?? 0;
  const cached = num(raw, 'cached') ?? 0;
  t.input_tokens = Math.max(0, input - cached) + (num(raw, 'tool') ?? 0);
  t.output_tokens = num(raw, 'output') ?? 0;
  t.cache_read_tokens = cached;
  t.reasoning_tokens = num(raw, 'thoughts') ?? 0;
  return t;
}

function thoughtText(value: unknown): string {
  const t = asObject(value);
  if (t === undefined) return typeof value === 'string' ? value : '';
  const subject = text(t, 'subject');
  const description = text(t, 'description') ?? '';
  return subject === undefined ? description : description === '' ? subject : `${subject}\n${description}`;
}

/**
 * Normalises one message; undefined for a value that is not a message of a known type. Without
 * `full`, tool calls carry their names only (the lower detail levels drop the rest).
 */
export function geminiMessage(value: unknown, fallbackId: string, full = true): GeminiMessage | undefined {
  const raw = asObject(value);
  const kind = kinds[str(raw, 'type') ?? ''];
  if (raw === undefined || kind === undefined) return undefined;
  const at = text(raw, 'timestamp') ?? null;
  const msg: GeminiMessage = {
    id: text(raw, 'id') ?? fallbackId,
    kind,
    at,
    text: '',
    thoughts: [],
    toolCalls: [],
    paths: [],
    shellDirs: [],
  };
  const content = raw.content ?? raw.parts;
  if (kind === 'user') {
    msg.text = clipMessage(userText(raw.displayContent, content));
    // Gemini CLI asks the model to go on by itself ("System: Please continue."), recording a tool
    // response as what was displayed: machinery the person never typed.
    if (isInjectedContinue(raw.displayContent, msg.text)) msg.kind = 'event';
    return msg;
  }
  msg.text = clipMessage(contentText(content).trim());
  if (kind === 'event') return msg;

  const model = text(raw, 'model');
  if (model !== undefined) msg.model = model;
  const tokens = tokensOf(asObject(raw.tokens));
  if (tokens !== undefined) msg.tokens = tokens;
  for (const th of arr(raw, 'thoughts') ?? []) {
    const t = thoughtText(th).trim();
    if (t !== '') msg.thoughts.push({ at: text(asObject(th), 'timestamp') ?? at, text: clipMessage(t) });
  }
  for (const tc of arr(raw, 'toolCalls') ?? []) {
    const converted = geminiToolCall(tc, full);
    if (converted === undefined) continue;
    msg.toolCalls.push(converted.call);
    msg.paths.push(...converted.paths);
    msg.shellDirs.push(...converted.shellDirs);
  }
  return msg;
}
