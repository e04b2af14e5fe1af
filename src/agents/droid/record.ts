// Builds the record from a Droid session: user prompts without Droid's `<system-reminder>` blocks,
// reasoning, replies with tool calls paired to their results, and each sub-agent (a session of its
// own whose `session_start` names the calling session and tool call) nested in the call that
// launched it. Tokens: each session's settings file states its own usage; a sub-agent's is its own.
import { newRecord, newSubagent, noteModel, noteTime } from '../../record/draft.js';
import { clipMessage } from '../../record/clip.js';
import type { SessionRecord, Subagent, ToolCall, Turn } from '../../record/types.js';
import type { DroidMessage } from './line.js';
import { saidText, typedText } from './line.js';
import type { DroidFile, DroidSettings } from './read-session.js';
import { completeCall, useCall } from './tool-call.js';

export interface DroidChild {
  file: DroidFile;
  settings: DroidSettings;
  id: string;
}

interface Built {
  turns: Turn[];
  calls: Map<string, ToolCall>;
  models: string[];
}

function buildTurns(messages: readonly DroidMessage[], fallbackModel: string | undefined, full: boolean): Built {
  const out: Built = { turns: [], calls: new Map(), models: [] };
  for (const m of messages) {
    if (m.role === 'user') {
      for (const b of m.blocks) {
        if (b.kind !== 'tool_result') continue;
        const call = b.toolUseId === undefined ? undefined : out.calls.get(b.toolUseId);
        if (call !== undefined) completeCall(call, b.output, b.isError, full);
      }
      const said = typedText(m);
      if (said !== '') out.turns.push({ role: 'user', at: m.at, text: clipMessage(said) });
      continue;
    }
    if (m.role !== 'assistant') continue;
    const thinking = m.blocks.flatMap((b) => (b.kind === 'thinking' && b.text.trim() !== '' ? [b.text.trim()] : []));
    if (thinking.length > 0) out.turns.push({ role: 'reasoning', at: m.at, text: clipMessage(thinking.join('\n\n')) });
    const calls: ToolCall[] = [];
    for (const b of m.blocks) {
      if (b.kind !== 'tool_use') continue;
      const call = useCall(b.name, b.input, full);
      if (b.id !== undefined) out.calls.set(b.id, call);
      calls.push(call);
    }
    const said = saidText(m);
    if (said === '' && calls.length === 0) continue;
    const turn: Turn = { role: 'assistant', at: m.at, text: clipMessage(said), tool_calls: calls };
    const model = m.model ?? fallbackModel;
    if (model !== undefined) turn.model = model;
    noteModel(out.models, model);
    out.turns.push(turn);
  }
  return out;
}

function subagentOf(child: DroidChild, full: boolean): Subagent {
  const sub = newSubagent(child.id);
  const built = buildTurns(child.file.messages, child.settings.model, full);
  sub.turns = built.turns;
  sub.name = child.file.start?.title ?? null;
  sub.models = built.models;
  noteModel(sub.models, child.settings.model);
  for (const m of child.file.messages) noteTime(sub, m.at ?? undefined);
  if (child.settings.tokens !== undefined) sub.totals = { ...child.settings.tokens };
  return sub;
}

/** The record and the working directory, or null when the file holds no session. */
export function droidRecord(
  sessionId: string,
  file: DroidFile,
  settings: DroidSettings,
  children: readonly DroidChild[],
  full = true,
): { record: SessionRecord; cwds: string[] } | null {
  if (file.start === undefined && file.messages.length === 0) return null;
  const record = newRecord('droid', sessionId);
  const built = buildTurns(file.messages, settings.model, full);
  record.turns = built.turns;
  record.models = built.models;
  noteModel(record.models, settings.model);
  for (const m of file.messages) noteTime(record, m.at ?? undefined);
  if (settings.tokens !== undefined) record.totals = { ...settings.tokens };
  for (const child of children) {
    const callId = child.file.start?.callingToolUseId;
    const call = callId === undefined ? undefined : built.calls.get(callId);
    if (call !== undefined) call.subagent = subagentOf(child, full);
  }
  const cwd = file.start?.cwd;
  record.repo = cwd ?? '';
  return { record, cwds: cwd === undefined ? [] : [cwd] };
}
