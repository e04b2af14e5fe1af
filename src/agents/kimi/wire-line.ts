// One line of a Kimi Code wire.jsonl narrowed to the events the record reads. Every field may be
// missing or drift; anything not understood becomes `other` (still counted as a record).
import { arr, asObject, bool, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { emptyTotals, type Totals } from '../../record/types.js';
import { epochIso, msIso } from '../../text/epoch-iso.js';

/** Who typed a prompt: `kind` is `user` for a person, `system_trigger`/`injection` for machinery. */
export interface PromptOrigin {
  kind: string | null;
  name: string | null;
  trigger: string | null;
}

export type WireEvent =
  | { type: 'prompt'; text: string; origin: PromptOrigin; uuid: string | undefined }
  | { type: 'steer'; text: string; origin: PromptOrigin; uuid: string | undefined }
  | { type: 'message'; message: JsonObject; origin: PromptOrigin }
  | { type: 'step.begin'; uuid: string | undefined }
  | { type: 'step.end'; uuid: string | undefined; usage: Totals | undefined }
  | { type: 'part'; uuid: string | undefined; stepUuid: string | undefined; kind: 'text' | 'think'; text: string }
  | { type: 'tool.call'; toolCallId: string; stepUuid: string | undefined; name: string; args: JsonObject | undefined }
  | { type: 'tool.result'; toolCallId: string; output: string; isError: boolean }
  | { type: 'usage'; usage: Totals; model: string | undefined; agentId: string | undefined }
  | { type: 'llm.request'; model: string | undefined }
  | { type: 'config'; cwd: string | undefined; modelAlias: string | undefined; profileName: string | undefined }
  | { type: 'undo'; count: number }
  | { type: 'clear' }
  | { type: 'compaction' }
  | { type: 'cancel' }
  | { type: 'spawned'; subagentId: string; parentToolCallId: string }
  | { type: 'other' };

export interface WireLine {
  event: WireEvent;
  /** ISO time of the line (`time` or `created_at`, epoch ms), or null. */
  at: string | null;
  /** The epoch ms `at` was formatted from by `epochIso` (so times order as these do); undefined for any other `at`. */
  ms: number | undefined;
}

/** An epoch-ms number or an ISO string as an ISO timestamp; null for anything else. */
export function isoTime(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return msIso(value);
  if (typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))) return value;
  return null;
}

function originOf(value: unknown): PromptOrigin {
  const o = asObject(value);
  return { kind: str(o, 'kind') ?? null, name: str(o, 'name') ?? null, trigger: str(o, 'trigger') ?? null };
}

/** The text parts of a content value (a string, or an array of `{type:"text", text}` parts). */
export function contentText(value: unknown): string {
  if (typeof value === 'string') return value;
  const parts: string[] = [];
  for (const raw of Array.isArray(value) ? value : []) {
    const part = asObject(raw);
    const t = str(part, 'text');
    if (t !== undefined && (str(part, 'type') ?? 'text') === 'text') parts.push(t);
  }
  return parts.join('\n');
}

/** Kimi's per-call usage shape: inputOther, output, inputCacheRead, inputCacheCreation. */
export function usageOf(value: unknown): Totals | undefined {
  const u = asObject(value);
  if (u === undefined) return undefined;
  const t = emptyTotals();
  t.input_tokens = num(u, 'inputOther') ?? num(u, 'input') ?? 0;
  t.output_tokens = num(u, 'output') ?? 0;
  t.cache_read_tokens = num(u, 'inputCacheRead') ?? 0;
  t.cache_creation_tokens = num(u, 'inputCacheCreation') ?? 0;
  return t;
}

function resultOutput(result: JsonObject | undefined): string {
  const out = result?.['output'];
  if (typeof out === 'string') return out;
  if (Array.isArray(out)) return contentText(out);
  const err = str(result, 'error') ?? str(result, 'message');
  return err ?? '';
}

function loopEvent(event: JsonObject | undefined): WireEvent {
  switch (str(event, 'type')) {
    case 'step.begin':
      return { type: 'step.begin', uuid: text(event, 'uuid') };
    case 'step.end':
      return { type: 'step.end', uuid: text(event, 'uuid'), usage: usageOf(event?.['usage']) };
    case 'content.part': {
      const part = obj(event, 'part');
      const kind = str(part, 'type');
      const stepUuid = text(event, 'stepUuid');
      const uuid = text(event, 'uuid');
      if (kind === 'text') return { type: 'part', uuid, stepUuid, kind: 'text', text: str(part, 'text') ?? '' };
      // Reasoning in the clear only: a part that carries no plain text (encrypted) is not read.
      if (kind === 'think' || kind === 'thinking')
        return {
          type: 'part',
          uuid,
          stepUuid,
          kind: 'think',
          text: str(part, 'think') ?? str(part, 'thinking') ?? str(part, 'text') ?? '',
        };
      return { type: 'other' };
    }
    case 'tool.call': {
      const toolCallId = text(event, 'toolCallId') ?? text(event, 'uuid');
      const name = text(event, 'name');
      if (toolCallId === undefined || name === undefined) return { type: 'other' };
      return { type: 'tool.call', toolCallId, stepUuid: text(event, 'stepUuid'), name, args: obj(event, 'args') };
    }
    case 'tool.result': {
      const toolCallId = text(event, 'toolCallId') ?? text(event, 'parentUuid');
      if (toolCallId === undefined) return { type: 'other' };
      const result = obj(event, 'result');
      return { type: 'tool.result', toolCallId, output: resultOutput(result), isError: bool(result, 'isError') === true };
    }
    default:
      return { type: 'other' };
  }
}

/** Narrows one parsed wire object. */
export function wireLine(o: JsonObject): WireLine {
  const time = o['time'];
  if (typeof time === 'number') {
    const fast = epochIso(time);
    if (fast !== undefined) return { event: wireEvent(o), at: fast, ms: time };
  }
  return { event: wireEvent(o), at: isoTime(time) ?? isoTime(o['created_at']), ms: undefined };
}

function wireEvent(o: JsonObject): WireEvent {
  switch (str(o, 'type')) {
    case 'turn.prompt':
      return { type: 'prompt', text: contentText(o['input']), origin: originOf(o['origin']), uuid: text(o, 'uuid') };
    case 'turn.steer':
      return { type: 'steer', text: contentText(o['input']), origin: originOf(o['origin']), uuid: text(o, 'uuid') };
    case 'turn.cancel':
      return { type: 'cancel' };
    case 'context.append_message': {
      const message = obj(o, 'message');
      return message === undefined ? { type: 'other' } : { type: 'message', message, origin: originOf(message['origin']) };
    }
    case 'context.append_loop_event':
      return loopEvent(obj(o, 'event'));
    case 'usage.record': {
      const usage = usageOf(o['usage']);
      return usage === undefined ? { type: 'other' } : { type: 'usage', usage, model: text(o, 'model'), agentId: text(o, 'agentId') };
    }
    case 'llm.request':
      return { type: 'llm.request', model: text(o, 'model') ?? text(o, 'modelAlias') };
    case 'config.update':
      return { type: 'config', cwd: text(o, 'cwd'), modelAlias: text(o, 'modelAlias'), profileName: text(o, 'profileName') };
    case 'context.undo':
      return { type: 'undo', count: Math.max(0, Math.trunc(num(o, 'count') ?? 1)) };
    case 'context.clear':
      return { type: 'clear' };
    case 'context.apply_compaction':
      return { type: 'compaction' };
    case 'subagent.spawned': {
      const subagentId = text(o, 'subagentId') ?? text(o, 'agentId');
      const parentToolCallId = text(o, 'parentToolCallId');
      if (subagentId === undefined || parentToolCallId === undefined) return { type: 'other' };
      return { type: 'spawned', subagentId, parentToolCallId };
    }
    default:
      return { type: 'other' };
  }
}

/** The tool calls of an assistant `context.append_message` (older wires without loop events). */
export function messageToolCalls(message: JsonObject): { id: string; name: string; args: JsonObject | undefined }[] {
  const calls: { id: string; name: string; args: JsonObject | undefined }[] = [];
  for (const raw of arr(message, 'toolCalls') ?? []) {
    const call = asObject(raw);
    const id = text(call, 'id');
    const fn = obj(call, 'function');
    const name = text(call, 'name') ?? text(fn, 'name');
    if (id === undefined || name === undefined) continue;
    const rawArgs = call?.['arguments'] ?? fn?.['arguments'];
    let args: JsonObject | undefined = asObject(rawArgs);
    if (args === undefined && typeof rawArgs === 'string') {
      try {
        args = asObject(JSON.parse(rawArgs));
      } catch {
        args = undefined;
      }
    }
    calls.push({ id, name, args });
  }
  return calls;
}
