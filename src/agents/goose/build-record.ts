// A Goose session as the record: what the user saw of it — messages Goose keeps for the model
// alone (`userVisible: false`: injected context, summaries) left out — user prompts, reasoning
// (`thinking`), assistant text with tool requests paired with the `toolResponse` items of the next
// user messages, inline system notifications as events, and Goose's session counters as totals.
import { num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { clipMessage, clipOutput } from '../../record/clip.js';
import { newRecord, noteModel, noteTime } from '../../record/draft.js';
import { emptyTotals, type SessionRecord, type Totals, type ToolCall, type Turn } from '../../record/types.js';
import { isErrorResult, isoOfSeconds, resultText, type GooseSession } from './model.js';
import { gooseToolCall } from './tool-call.js';

/**
 * Goose's own counters: the `accumulated_*` figures summed over every request (the plain ones are
 * the last request's), else the plain ones (sessions from before accumulation); `accumulated_cost`
 * where the store has it (schema 13). Goose states no cache figures in this schema.
 */
export function gooseTotals(counters: JsonObject): Totals {
  const t = emptyTotals();
  t.input_tokens = num(counters, 'accumulated_input_tokens') ?? num(counters, 'input_tokens') ?? 0;
  t.output_tokens = num(counters, 'accumulated_output_tokens') ?? num(counters, 'output_tokens') ?? 0;
  const cost = num(counters, 'accumulated_cost');
  t.cost_usd = cost === undefined ? null : cost;
  return t;
}

export function visibleText(items: readonly JsonObject[]): string {
  return items
    .filter((i) => str(i, 'type') === 'text')
    .map((i) => (str(i, 'text') ?? '').trim())
    .filter((t) => t !== '')
    .join('\n\n');
}

export function buildGooseRecord(session: GooseSession, full: boolean): SessionRecord {
  const record = newRecord('goose', session.id);
  record.repo = session.workingDir ?? '';
  const span = { started_at: session.createdAt, ended_at: session.createdAt };
  const calls = new Map<string, ToolCall>();
  const model = session.model;
  noteModel(record.models, model);
  for (const m of session.messages) {
    const at = isoOfSeconds(m.created);
    noteTime(span, at ?? undefined);
    for (const item of m.content) {
      if (str(item, 'type') !== 'toolResponse') continue;
      const call = calls.get(text(item, 'id') ?? '');
      if (call === undefined) continue;
      const result = obj(item, 'toolResult');
      if (str(result, 'status') === 'error') {
        call.status = 'error';
        if (full) call.output = clipOutput(str(result, 'error') ?? 'error');
        continue;
      }
      call.status = isErrorResult(result?.value) ? 'error' : 'ok';
      const out = resultText(result?.value);
      if (full && out !== undefined && out !== '') call.output = clipOutput(out);
    }
    if (!m.userVisible) continue;
    if (m.role === 'user') {
      const typed = visibleText(m.content);
      if (typed !== '') record.turns.push({ role: 'user', at, text: clipMessage(typed) });
      continue;
    }
    if (m.role !== 'assistant') continue;
    const turn: Turn = { role: 'assistant', at, text: '', tool_calls: [], ...(model === undefined ? {} : { model }) };
    const flush = (): void => {
      if (turn.text === '' && (turn.tool_calls?.length ?? 0) === 0) return;
      record.turns.push({ ...turn, text: clipMessage(turn.text), tool_calls: turn.tool_calls ?? [] });
      turn.text = '';
      turn.tool_calls = [];
    };
    for (const item of m.content) {
      const type = str(item, 'type');
      if (type === 'thinking') {
        const thought = (str(item, 'thinking') ?? '').trim();
        if (thought === '') continue;
        flush();
        record.turns.push({ role: 'reasoning', at, text: clipMessage(thought) });
      } else if (type === 'text') {
        const said = (str(item, 'text') ?? '').trim();
        if (said === '') continue;
        if ((turn.tool_calls?.length ?? 0) > 0) flush();
        turn.text = turn.text === '' ? said : `${turn.text}\n\n${said}`;
      } else if (type === 'toolRequest' || type === 'frontendToolRequest') {
        const call = gooseToolCall(item, full);
        turn.tool_calls?.push(call);
        const id = text(item, 'id');
        if (id !== undefined) calls.set(id, call);
      } else if (type === 'systemNotification' && str(item, 'notificationType') === 'inlineMessage') {
        flush();
        const msg = text(item, 'msg');
        if (msg !== undefined) record.turns.push({ role: 'event', at, text: msg });
      }
    }
    flush();
  }
  record.started_at = span.started_at;
  record.ended_at = span.ended_at;
  record.totals = gooseTotals(session.counters);
  return record;
}
