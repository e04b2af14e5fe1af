// The active branch as record turns: user prompts, each assistant message as its reasoning (in
// the clear) and its text with tool calls paired to their results, and compactions, branch
// summaries, interruptions and errors as event turns. Each assistant message's usage rides on its
// turn.
import { clipMessage } from '../../record/clip.js';
import { addTurnUsage, usageCarrier } from '../../record/turn-usage.js';
import type { ToolCall, Turn, UsageApart } from '../../record/types.js';
import { bashTurnText, type PiBody, type PiEntry, type PiPart } from './entry.js';
import { toToolCall } from './tool-call.js';

type PiResult = Extract<PiBody, { type: 'toolResult' }>;

/**
 * A message's reasoning and its text, each part joined by a blank line; undefined when it has no
 * part of that kind. One loop, not filter and map: the arrays they made changed map between empty
 * and not, and each change threw away the optimised `branchTurns` (recompiled four times in a cold
 * scan of the bench home's Pi sessions, ~40-170 ms of compiler time each).
 */
function partTexts(parts: readonly PiPart[]): { thinking: string | undefined; said: string | undefined } {
  let thinking: string | undefined;
  let said: string | undefined;
  for (const p of parts) {
    if (p.kind === 'thinking') thinking = thinking === undefined ? p.text : `${thinking}\n\n${p.text}`;
    else said = said === undefined ? p.text : `${said}\n\n${p.text}`;
  }
  return { thinking, said };
}

/**
 * `full`: tool calls carry their input (the lower detail levels drop it unbuilt). The usage of a
 * message that made no turn goes to `apart`.
 */
export function branchTurns(active: readonly PiEntry[], full = true, apart: UsageApart[] = []): Turn[] {
  const results = new Map<string, PiResult>();
  for (const e of active) if (e.body.type === 'toolResult') results.set(e.body.toolCallId, e.body);
  const turns: Turn[] = [];
  for (const e of active) {
    const b = e.body;
    switch (b.type) {
      case 'user':
        if (b.text.trim() !== '') turns.push({ role: 'user', at: e.at, text: clipMessage(b.text) });
        break;
      case 'bash':
        turns.push({ role: 'user', at: e.at, text: clipMessage(bashTurnText(b.command)) });
        break;
      case 'assistant': {
        const from = turns.length;
        const { thinking, said } = partTexts(b.parts);
        if (thinking !== undefined) turns.push({ role: 'reasoning', at: e.at, text: clipMessage(thinking) });
        const cut = b.stopReason === 'aborted' || b.stopReason === 'error';
        if (said !== undefined || b.calls.length > 0) {
          const calls: ToolCall[] = [];
          for (const c of b.calls) calls.push(toToolCall(c, results.get(c.id), cut, full));
          const turn: Turn = { role: 'assistant', at: e.at, text: clipMessage(said ?? ''), tool_calls: calls };
          if (b.model !== undefined) turn.model = b.model;
          turns.push(turn);
        }
        if (b.stopReason === 'aborted') turns.push({ role: 'event', at: e.at, text: 'interrupted' });
        else if (b.stopReason === 'error')
          turns.push({ role: 'event', at: e.at, text: clipMessage(`error: ${b.errorMessage ?? 'the request failed'}`) });
        const carrier = usageCarrier(turns, from);
        if (b.usage !== undefined) {
          if (carrier !== undefined) addTurnUsage(carrier, b.usage);
          else apart.push({ at: e.at, ...(b.model === undefined ? {} : { model: b.model }), usage: b.usage });
        }
        break;
      }
      case 'compaction':
        turns.push({ role: 'event', at: e.at, text: 'context compacted' });
        break;
      case 'branch_summary':
        turns.push({
          role: 'event',
          at: e.at,
          text: clipMessage(b.summary.trim() === '' ? 'returned from a branch' : `returned from a branch: ${b.summary}`),
        });
        break;
      default:
        break;
    }
  }
  return turns;
}
