// One OpenCode session's messages as turns: user text (synthetic parts dropped), reasoning in the
// clear, assistant text with its tool calls, compactions and interruptions as events, and the
// tokens and cost each assistant message states, counted once per message.
import { bool, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { clipMessage } from '../../record/clip.js';
import { noteModel, noteTime } from '../../record/draft.js';
import { addTurnUsage, usageCarrier } from '../../record/turn-usage.js';
import { emptyTotals, addTotals, type Totals, type ToolCall, type Turn, type UsageApart } from '../../record/types.js';
import { epochMs, isoTime, messageModel, partType, type OcSessionData } from './model.js';
import { opencodeToolCall } from './tool-call.js';

/** A `task` call, kept so the child session it launched can be nested in it. */
export interface TaskLaunch {
  call: ToolCall;
  state: string | undefined;
  childId?: string;
  input: JsonObject;
}

export type SessionEnding = 'completed' | 'aborted' | 'error';

export interface SessionTurns {
  turns: Turn[];
  totals: Totals;
  /** Usage of messages that made no turn (see `UsageApart`). */
  usageApart: UsageApart[];
  models: string[];
  span: { started_at: string | null; ended_at: string | null };
  cwds: string[];
  launches: TaskLaunch[];
  /** The last assistant text: what a subagent hands back. */
  lastWords?: string;
  ending?: SessionEnding;
  /** The agent (`build`, `plan`, `general`…) the first assistant message ran as. */
  agent?: string;
}

function pushOnce(list: string[], value: string | undefined): void {
  if (value !== undefined && value !== '' && !list.includes(value)) list.push(value);
}

/** A part's own start time, else its message's. */
function partAt(part: JsonObject, fallback: string | null): string | null {
  return isoTime(num(obj(part, 'time'), 'start')) ?? fallback;
}

function tokensOf(tokens: JsonObject): Totals {
  const t = emptyTotals();
  const cache = obj(tokens, 'cache');
  t.input_tokens = num(tokens, 'input') ?? 0;
  t.output_tokens = num(tokens, 'output') ?? 0;
  t.reasoning_tokens = num(tokens, 'reasoning') ?? 0;
  t.cache_read_tokens = num(cache, 'read') ?? 0;
  t.cache_creation_tokens = num(cache, 'write') ?? 0;
  return t;
}

function costOf(value: JsonObject | undefined, key: string): number | undefined {
  return num(value, key) ?? num(obj(value, key), 'usd');
}

/**
 * An assistant message's usage: the totals it states, else the sum of its `step-finish` parts
 * (each step reports its own). Never both, so a step is not counted twice.
 */
function messageTotals(info: JsonObject, parts: readonly JsonObject[]): Totals {
  const steps = parts.filter((p) => partType(p) === 'step-finish');
  const stated = obj(info, 'tokens');
  const totals =
    stated !== undefined ? tokensOf(stated) : steps.reduce((acc, p) => addTotals(acc, tokensOf(obj(p, 'tokens') ?? {})), emptyTotals());
  let cost = costOf(info, 'cost');
  if (cost === undefined) {
    for (const p of steps) {
      const c = costOf(p, 'cost');
      if (c !== undefined) cost = (cost ?? 0) + c;
    }
  }
  totals.cost_usd = cost ?? null;
  return totals;
}

function isShown(part: JsonObject): boolean {
  return bool(part, 'synthetic') !== true && bool(part, 'ignored') !== true;
}

function userText(info: JsonObject, parts: readonly JsonObject[]): string {
  const texts = parts.filter((p) => partType(p) === 'text' && isShown(p)).map((p) => str(p, 'text') ?? '');
  const joined = texts.join('\n').trim();
  // Drifted stores without part files keep only the message's summary of what was asked.
  if (joined === '' && parts.length === 0) return text(obj(info, 'summary'), 'title')?.trim() ?? '';
  return joined;
}

/** `full`: build tool calls' input and output (the lower detail levels drop them). */
export function sessionTurns(data: OcSessionData, full = true): SessionTurns {
  const out: SessionTurns = {
    turns: [],
    totals: emptyTotals(),
    usageApart: [],
    models: [],
    span: { started_at: null, ended_at: null },
    cwds: [],
    launches: [],
  };
  noteTime(out.span, isoTime(data.session.createdMs) ?? undefined);
  pushOnce(out.cwds, data.session.directory);

  for (const message of data.messages) {
    const { info, parts } = message;
    const time = obj(info, 'time');
    const at = isoTime(num(time, 'created'));
    noteTime(out.span, at ?? undefined);
    noteTime(out.span, isoTime(num(time, 'completed')) ?? undefined);
    const role = str(info, 'role');
    if (role === 'user') {
      const t = userText(info, parts);
      if (t !== '') out.turns.push({ role: 'user', at, text: clipMessage(t) });
      for (const p of parts) if (partType(p) === 'compaction') out.turns.push({ role: 'event', at, text: 'context compacted' });
      continue;
    }
    if (role !== 'assistant') continue;

    const model = messageModel(info);
    noteModel(out.models, model);
    out.agent ??= text(info, 'agent') ?? text(info, 'mode');
    const used = messageTotals(info, parts);
    addTotals(out.totals, used);
    const from = out.turns.length;
    const path = obj(info, 'path');
    pushOnce(out.cwds, text(path, 'cwd'));
    pushOnce(out.cwds, text(path, 'root'));
    const error = obj(info, 'error');
    const aborted = str(error, 'name') === 'MessageAbortedError';

    let current: Turn | undefined;
    const flush = (): void => {
      if (current !== undefined && (current.text !== '' || (current.tool_calls?.length ?? 0) > 0)) {
        current.text = clipMessage(current.text);
        out.turns.push(current);
        if (current.text !== '') out.lastWords = current.text;
      }
      current = undefined;
    };
    const open = (turnAt: string | null): Turn => {
      current ??= { role: 'assistant', at: turnAt, text: '', tool_calls: [], ...(model === undefined ? {} : { model }) };
      return current;
    };
    for (const part of parts) {
      const type = partType(part);
      if (type === 'reasoning') {
        const t = (str(part, 'text') ?? '').trim();
        if (t === '') continue;
        flush();
        out.turns.push({ role: 'reasoning', at: partAt(part, at), text: clipMessage(t) });
      } else if (type === 'text') {
        const t = (str(part, 'text') ?? '').trim();
        if (t === '' || !isShown(part)) continue;
        if ((current?.tool_calls?.length ?? 0) > 0) flush();
        const turn = open(partAt(part, at));
        turn.text = turn.text === '' ? t : `${turn.text}\n\n${t}`;
      } else if (type === 'tool') {
        const converted = opencodeToolCall(part, aborted, full);
        if (converted === undefined) continue;
        open(partAt(part, at)).tool_calls?.push(converted.call);
        if (converted.taskInput !== undefined) {
          out.launches.push({
            call: converted.call,
            state: converted.state,
            input: converted.taskInput,
            ...(converted.childId === undefined ? {} : { childId: converted.childId }),
          });
        }
        const end = isoTime(num(obj(obj(part, 'state'), 'time'), 'end'));
        noteTime(out.span, end ?? undefined);
      } else if (type === 'compaction') {
        flush();
        out.turns.push({ role: 'event', at, text: 'context compacted' });
      }
    }
    flush();
    if (error !== undefined) {
      const reason = text(obj(error, 'data'), 'message') ?? text(error, 'name') ?? 'error';
      out.turns.push({ role: 'event', at: isoTime(num(time, 'completed')) ?? at, text: aborted ? 'interrupted' : `error: ${reason}` });
      out.ending = aborted ? 'aborted' : 'error';
    } else if (epochMs(num(time, 'completed')) !== undefined || text(info, 'finish') !== undefined) {
      out.ending = 'completed';
    } else {
      delete out.ending;
    }
    // The message's usage rides on its first assistant turn, else on another turn it made, else stands apart.
    const carrier = usageCarrier(out.turns, from);
    if (carrier !== undefined) addTurnUsage(carrier, used);
    else out.usageApart.push({ at, ...(model === undefined ? {} : { model }), usage: used });
  }
  return out;
}
