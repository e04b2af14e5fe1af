// Builds the record from a Qwen Code chat file: turns follow the active branch (user prompts,
// reasoning, replies with tool calls paired to their results, compactions and injected prompts as
// events); totals, models and times count every assistant record, rewound and sidechain ones
// included, because each was a request billed.
import { newRecord, noteModel, noteTime } from '../../record/draft.js';
import { clipMessage } from '../../record/clip.js';
import { addTurnUsage, usageCarrier } from '../../record/turn-usage.js';
import { addTotals, type SessionRecord, type Turn } from '../../record/types.js';
import { str } from '../../json/narrow.js';
import { splitBranches } from './branch.js';
import type { QwenRecord } from './chat-record.js';
import type { ChatFile } from './read-chat.js';
import { toToolCall, type CallResult } from './tool-call.js';
import { typedText, userKind } from './user-text.js';

function resultsByCall(active: readonly QwenRecord[]): Map<string, CallResult> {
  const out = new Map<string, CallResult>();
  for (const r of active) {
    if (r.type !== 'tool_result') continue;
    for (const response of r.responses) if (response.id !== undefined) out.set(response.id, { response, record: r });
    const callId = str(r.toolResult, 'callId');
    if (callId !== undefined && !out.has(callId)) out.set(callId, { response: r.responses[0], record: r });
  }
  return out;
}

/**
 * The active branch's records as turns; `full`: tool calls carry input and output. Each request's
 * usage goes on the turn it made (`placed` collects those records); a request that made no turn
 * keeps its usage apart (see `qwenRecord`).
 */
export function branchTurns(active: readonly QwenRecord[], full: boolean, placed?: Set<QwenRecord>): Turn[] {
  const results = resultsByCall(active);
  const turns: Turn[] = [];
  for (const r of active) {
    switch (r.type) {
      case 'user': {
        const t = typedText(r);
        if (t === '') break;
        turns.push({ role: userKind(r) === 'prompt' ? 'user' : 'event', at: r.at, text: clipMessage(t) });
        break;
      }
      case 'assistant': {
        const from = turns.length;
        const thinking = r.thoughts.filter((t) => t.trim() !== '');
        if (thinking.length > 0) turns.push({ role: 'reasoning', at: r.at, text: clipMessage(thinking.join('\n\n').trim()) });
        const said = r.texts.join('').trim();
        if (said !== '' || r.calls.length > 0) {
          const turn: Turn = {
            role: 'assistant',
            at: r.at,
            text: clipMessage(said),
            tool_calls: r.calls.map((c) => toToolCall(c, c.id === undefined ? undefined : results.get(c.id), full)),
          };
          if (r.model !== undefined) turn.model = r.model;
          turns.push(turn);
        }
        const carrier = usageCarrier(turns, from);
        if (r.usage !== undefined && carrier !== undefined) {
          addTurnUsage(carrier, r.usage);
          placed?.add(r);
        }
        break;
      }
      case 'system':
        if (r.subtype === 'chat_compression') turns.push({ role: 'event', at: r.at, text: 'context compacted' });
        else if (r.subtype === 'slash_command' && str(r.systemPayload, 'phase') === 'invocation') {
          const command = str(r.systemPayload, 'rawCommand');
          if (command !== undefined && command.trim() !== '') turns.push({ role: 'event', at: r.at, text: clipMessage(command.trim()) });
        }
        break;
      default:
        break;
    }
  }
  return turns;
}

/** True when a file holds any conversation at all. */
function hasConversation(records: readonly QwenRecord[]): boolean {
  return records.some((r) => r.type === 'user' || r.type === 'assistant');
}

/** The record and the working directories, or null when the file holds no conversation. */
export function qwenRecord(sessionId: string, file: ChatFile, full = true): { record: SessionRecord; cwds: string[] } | null {
  if (!hasConversation(file.records)) return null;
  const { active } = splitBranches(file.records);
  const record = newRecord('qwen', sessionId);
  const placed = new Set<QwenRecord>();
  record.turns = branchTurns(active, full, placed);
  const cwds: string[] = [];
  for (const r of file.records) {
    noteTime(record, r.at ?? undefined);
    if (r.cwd !== undefined && !cwds.includes(r.cwd)) cwds.push(r.cwd);
    if (r.type !== 'assistant') continue;
    if (r.usage !== undefined) addTotals(record.totals, r.usage);
    // A rewound or sidechain request, or one that said nothing, was billed when it was made.
    if (r.usage !== undefined && !placed.has(r))
      (record.usage_apart ??= []).push({ at: r.at, ...(r.model !== undefined ? { model: r.model } : {}), usage: r.usage });
    if (r.usage !== undefined || r.texts.length > 0 || r.calls.length > 0) noteModel(record.models, r.model);
  }
  for (const r of active) if (r.gitBranch !== undefined) record.branch = r.gitBranch;
  record.repo = cwds[0] ?? '';
  return { record, cwds };
}
