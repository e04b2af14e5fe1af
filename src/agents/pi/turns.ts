// The active branch as record turns: user prompts, each assistant message as its reasoning (in
// the clear) and its text with tool calls paired to their results, and compactions, branch
// summaries, interruptions and errors as event turns. Each assistant message's usage rides on its
// turn.
import { clipMessage } from '../../record/clip.js';
import { addTurnUsage, usageCarrier } from '../../record/turn-usage.js';
import type { Turn, UsageApart } from '../../record/types.js';
import { bashTurnText, type PiBody, type PiEntry } from './entry.js';
import { toToolCall } from './tool-call.js';

type PiResult = Extract<PiBody, { type: 'toolResult' }>;

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
        const thinking = b.parts.filter((p) => p.kind === 'thinking').map((p) => p.text);
        if (thinking.length > 0) turns.push({ role: 'reasoning', at: e.at, text: clipMessage(thinking.join('\n\n')) });
        const cut = b.stopReason === 'aborted' || b.stopReason === 'error';
        const said = b.parts.filter((p) => p.kind === 'text').map((p) => p.text);
        if (said.length > 0 || b.calls.length > 0) {
          const turn: Turn = {
            role: 'assistant',
            at: e.at,
            text: clipMessage(said.join('\n\n')),
            tool_calls: b.calls.map((c) => toToolCall(c, results.get(c.id), cut, full)),
          };
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
