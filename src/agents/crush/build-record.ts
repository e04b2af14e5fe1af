// Crush rows as the record: the root session's messages as turns (user prompts as typed — Crush
// injects its reminders into the request, never into the stored message — reasoning, assistant
// text with tool calls paired with the `tool` messages' results, summaries and cancellations as
// events), each agent-tool session (`<message id>$$<tool call id>`) nested in the call that ran it.
import { clipMessage, clipOutput } from '../../record/clip.js';
import { newRecord, newSubagent, noteModel, noteTime } from '../../record/draft.js';
import {
  emptyTotals,
  type SessionRecord,
  type Subagent,
  type SubagentStatus,
  type Totals,
  type ToolCall,
  type Turn,
} from '../../record/types.js';
import { num, str, text, type JsonObject } from '../../json/narrow.js';
import { type CrushPart, isoOf, parseParts } from './parts.js';
import type { CrushRows } from './store.js';
import { crushToolCall } from './tool-call.js';

/** A message row with its `parts` column parsed once. */
export interface CrushMessage {
  row: JsonObject;
  parts: CrushPart[];
}

export interface CrushSession {
  row: JsonObject;
  messages: CrushMessage[];
}

export interface CrushTree {
  rootId: string;
  sessions: Map<string, CrushSession>;
}

/** Groups the rows by session; messages whose parts are not JSON are counted, not fatal. */
export function treeFromRows(rows: CrushRows, rootId: string): { tree: CrushTree | null; badRows: number } {
  const sessions = new Map<string, CrushSession>();
  let badRows = 0;
  for (const row of rows.sessions) {
    const id = text(row, 'id');
    if (id === undefined) badRows++;
    else sessions.set(id, { row, messages: [] });
  }
  for (const m of rows.messages) {
    const owner = sessions.get(text(m, 'session_id') ?? '');
    const parts = parseParts(m.parts);
    if (parts === undefined) badRows++;
    else owner?.messages.push({ row: m, parts });
  }
  return { tree: sessions.has(rootId) ? { rootId, sessions } : null, badRows };
}

/** A title-generation session (`title-<parent id>`, internal/session/session.go): machinery, never shown. */
export function isTitleSession(id: string, parentId: string | undefined): boolean {
  return parentId !== undefined && id === `title-${parentId}`;
}

/** Crush's own counters for one session row: `prompt_tokens` is input with cache reads in it. */
function rowTotals(row: JsonObject): Totals {
  const t = emptyTotals();
  t.input_tokens = num(row, 'prompt_tokens') ?? 0;
  t.output_tokens = num(row, 'completion_tokens') ?? 0;
  const cost = num(row, 'cost');
  t.cost_usd = cost === undefined ? null : cost;
  return t;
}

interface Built {
  turns: Turn[];
  models: string[];
  span: { started_at: string | null; ended_at: string | null };
  calls: Map<string, ToolCall>;
  lastWords?: string;
}

function sessionTurns(session: CrushSession, full: boolean): Built {
  const out: Built = { turns: [], models: [], span: { started_at: null, ended_at: null }, calls: new Map() };
  noteTime(out.span, isoOf(session.row.created_at) ?? undefined);
  for (const { row: m, parts } of session.messages) {
    const at = isoOf(m.created_at);
    noteTime(out.span, at ?? undefined);
    noteTime(out.span, isoOf(m.finished_at) ?? undefined);
    const role = str(m, 'role');
    if (role === 'user') {
      const typed = parts
        .filter((p) => p.type === 'text')
        .map((p) => str(p.data, 'text') ?? '')
        .join('\n')
        .trim();
      if (typed !== '') out.turns.push({ role: 'user', at, text: clipMessage(typed) });
      for (const p of parts)
        if (p.type === 'shell_command') out.turns.push({ role: 'event', at, text: `! ${str(p.data, 'command') ?? ''}` });
    } else if (role === 'tool') {
      for (const p of parts) {
        if (p.type !== 'tool_result') continue;
        const call = out.calls.get(str(p.data, 'tool_call_id') ?? '');
        if (call === undefined) continue;
        const content = str(p.data, 'content');
        if (full && content !== undefined && content !== '') call.output = clipOutput(content);
        call.status = p.data.is_error === true ? 'error' : 'ok';
      }
    } else if (role === 'assistant') {
      if (m.is_summary_message === 1 || m.is_summary_message === true) {
        out.turns.push({ role: 'event', at, text: 'context compacted' });
        continue;
      }
      const model = text(m, 'model');
      noteModel(out.models, model);
      const turn: Turn = { role: 'assistant', at, text: '', tool_calls: [], ...(model === undefined ? {} : { model }) };
      let ending: Turn | undefined;
      for (const p of parts) {
        if (p.type === 'reasoning') {
          const thinking = (str(p.data, 'thinking') ?? '').trim();
          if (thinking !== '') out.turns.push({ role: 'reasoning', at, text: clipMessage(thinking) });
        } else if (p.type === 'text') {
          const said = (str(p.data, 'text') ?? '').trim();
          if (said !== '') turn.text = turn.text === '' ? said : `${turn.text}\n\n${said}`;
        } else if (p.type === 'tool_call') {
          const call = crushToolCall(p.data, full);
          turn.tool_calls?.push(call);
          const id = text(p.data, 'id');
          if (id !== undefined) out.calls.set(id, call);
        } else if (p.type === 'finish') {
          const reason = str(p.data, 'reason');
          const finishedAt = isoOf(num(p.data, 'time')) ?? at;
          noteTime(out.span, finishedAt ?? undefined);
          if (reason === 'canceled') ending = { role: 'event', at: finishedAt, text: 'interrupted' };
          else if (reason === 'error') ending = { role: 'event', at: finishedAt, text: `error: ${str(p.data, 'message') ?? 'error'}` };
          else if (reason === 'content_filter') ending = { role: 'event', at: finishedAt, text: 'refused by the provider' };
        }
      }
      if (turn.text !== '' || (turn.tool_calls?.length ?? 0) > 0) {
        turn.text = clipMessage(turn.text);
        out.turns.push(turn);
        if (turn.text !== '') out.lastWords = turn.text;
      }
      if (ending !== undefined) {
        if (ending.text === 'interrupted') for (const c of turn.tool_calls ?? []) c.status ??= 'interrupted';
        out.turns.push(ending);
      }
    }
  }
  return out;
}

class TreeBuilder {
  private readonly placed = new Set<string>();
  constructor(
    private readonly tree: CrushTree,
    private readonly full: boolean,
  ) {}

  /** One session's turns with its children nested; answers them and the totals of the session alone. */
  build(session: CrushSession): { built: Built; totals: Totals } {
    const id = text(session.row, 'id') ?? '';
    this.placed.add(id);
    const built = sessionTurns(session, this.full);
    const totals = rowTotals(session.row);
    const children = [...this.tree.sessions.values()].filter((c) => {
      const childId = text(c.row, 'id') ?? '';
      return text(c.row, 'parent_session_id') === id && !this.placed.has(childId) && !isTitleSession(childId, id);
    });
    for (const child of children) {
      const childId = text(child.row, 'id') ?? '';
      if (this.placed.has(childId)) continue;
      const sub = this.subagent(child);
      // Crush adds a sub-agent's cost into its parent's (coordinator.updateParentSessionCost): taken
      // out here, so the session with its subagents counts each dollar once.
      // The child's row already holds its own children's cost, so its row figure is what was added.
      const added = num(child.row, 'cost');
      if (totals.cost_usd !== null && added !== undefined) totals.cost_usd = Math.max(0, totals.cost_usd - added);
      const callId = childId.includes('$$') ? childId.slice(childId.indexOf('$$') + 2) : undefined;
      const call = callId === undefined ? undefined : built.calls.get(callId);
      if (call !== undefined) {
        call.subagent = sub;
        sub.status =
          call.status === 'error' ? 'failed' : call.status === 'ok' ? 'completed' : call.status === 'interrupted' ? 'stopped' : 'running';
        continue;
      }
      const own: ToolCall = { name: 'agent', ...(this.full ? { format: 'text' as const } : {}), subagent: sub };
      const at = isoOf(child.row.created_at);
      const index = at === null ? -1 : built.turns.findIndex((t) => t.at !== null && t.at > at);
      const turn: Turn = { role: 'assistant', at, text: '', tool_calls: [own] };
      if (index === -1) built.turns.push(turn);
      else built.turns.splice(index, 0, turn);
    }
    return { built, totals };
  }

  private subagent(child: CrushSession): Subagent {
    const { built, totals } = this.build(child);
    const sub = newSubagent(text(child.row, 'id') ?? '');
    sub.name = 'agent';
    sub.description = text(child.row, 'title') ?? null;
    sub.models = built.models;
    sub.started_at = built.span.started_at;
    sub.ended_at = built.span.ended_at;
    sub.status = statusOf(built);
    sub.totals = totals;
    sub.turns = built.turns;
    return sub;
  }
}

function statusOf(built: Built): SubagentStatus | null {
  const last = built.turns.at(-1);
  if (last?.role === 'event' && last.text === 'interrupted') return 'stopped';
  if (last?.role === 'event' && last.text.startsWith('error')) return 'failed';
  return built.lastWords === undefined ? null : 'completed';
}

/** The record of the tree's root, at full detail or without tool input and output. */
export function buildCrushRecord(tree: CrushTree, cwd: string | undefined, full: boolean): SessionRecord | null {
  const root = tree.sessions.get(tree.rootId);
  if (root === undefined) return null;
  const { built, totals } = new TreeBuilder(tree, full).build(root);
  const record = newRecord('crush', tree.rootId);
  record.repo = cwd ?? '';
  record.models = built.models;
  record.started_at = built.span.started_at;
  record.ended_at = built.span.ended_at;
  record.turns = built.turns;
  record.totals = totals;
  return record;
}
