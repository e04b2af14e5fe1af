// One task folder (and the subtask folders discovery listed with it) read into the record: the
// conversation's turns, the UI messages' tokens and times, Roo Code's subtasks nested under the
// `new_task` calls that launched them.
import { basename, dirname, join } from 'node:path';
import { arr, asObject, str } from '../../json/narrow.js';
import { newRecord, newSubagent, noteModel, noteTime } from '../../record/draft.js';
import { emptyTotals, type SessionRecord, type Subagent, type SubagentStatus, type Totals, type Turn } from '../../record/types.js';
import type { DiscoveredSession, FileProblem, ParsedSession } from '../types.js';
import { readConversation, type Conversation } from './conversation.js';
import { msIso } from '../../text/epoch-iso.js';
import { cutToolOutputs } from './summary-cut.js';
import { type DocumentBytes, type DocumentRead, parseDocument, readDocument, readDocumentBytes, taskFileNames } from './task-files.js';
import { readUiMessages, type UiFacts, usageApart } from './ui-messages.js';
import type { ClineAgentId } from './variant.js';

interface TaskRead {
  id: string;
  conversation: Conversation;
  ui: UiFacts | null;
  item: { parentId?: string; mode?: string; task?: string; status?: string; workspace?: string };
  /** Whether the folder held any conversation or UI messages at all. */
  held: boolean;
}

interface ReadState {
  badLines: { path: string; count: number }[];
  problems: FileProblem[];
  /**
   * The files discovery listed (every file the record is read from): one it did not list is not
   * there, so it is not asked for (Cline keeps no history_item.json, Roo Code no task_metadata.json:
   * a failed open per task).
   */
  listed: ReadonlySet<string>;
}

/** A listed document, read; one discovery did not list is missing. */
function listedDocument(path: string, state: ReadState): DocumentRead {
  return state.listed.has(path) ? readDocument(path) : { missing: true };
}

/** A listed document's bytes; one discovery did not list is missing. */
function listedBytes(path: string, state: ReadState): DocumentBytes {
  return state.listed.has(path) ? readDocumentBytes(path) : { missing: true };
}

/** A document that should be a JSON array: its items, or nothing (a bad or missing one is noted). */
function arrayOf(path: string, read: DocumentBytes, state: ReadState): readonly unknown[] | null {
  if ('missing' in read) return null;
  if ('problem' in read) {
    state.problems.push(read.problem);
    return null;
  }
  const parsed = parseDocument(read.bytes.toString('utf8'));
  if ('bad' in parsed || !Array.isArray(parsed.value)) {
    state.badLines.push({ path, count: 1 });
    return null;
  }
  return parsed.value;
}

/** The conversation with its long tool outputs cut (summary-cut.ts), or null when nothing was cut or the cut is not an array. */
function cutArray(read: DocumentBytes): readonly unknown[] | null {
  const text = 'bytes' in read ? cutToolOutputs(read.bytes) : undefined;
  const parsed = text === undefined ? undefined : parseDocument(text);
  return parsed !== undefined && 'value' in parsed && Array.isArray(parsed.value) ? parsed.value : null;
}

/** The model Cline's task_metadata.json last recorded (`model_usage[].model_id`). */
function metadataModel(dir: string, state: ReadState): string | undefined {
  const read = listedDocument(join(dir, taskFileNames.metadata), state);
  if (!('value' in read)) return undefined;
  const usage = arr(asObject(read.value), 'model_usage') ?? [];
  const model = str(asObject(usage.at(-1)), 'model_id');
  return model === '' ? undefined : model;
}

function historyItem(dir: string, state: ReadState): TaskRead['item'] {
  const read = listedDocument(join(dir, taskFileNames.historyItem), state);
  const item = 'value' in read ? asObject(read.value) : undefined;
  const out: TaskRead['item'] = {};
  for (const [key, from] of [
    ['parentId', 'parentTaskId'],
    ['mode', 'mode'],
    ['task', 'task'],
    ['status', 'status'],
    ['workspace', 'workspace'],
  ] as const) {
    const v = str(item, from);
    if (v !== undefined && v !== '') out[key] = v;
  }
  return out;
}

function readTask(agent: ClineAgentId, dir: string, full: boolean, state: ReadState): TaskRead {
  const apiPath = join(dir, taskFileNames.api);
  const uiPath = join(dir, taskFileNames.ui);
  const apiRead = listedBytes(apiPath, state);
  // Below full detail the long tool outputs are cut before the document is decoded, most of its
  // bytes: on the bench home Cline's 30 MB of conversations decode as 8.5 MB, and reading its 92
  // tasks took ~160 ms of the main thread instead of ~230 (Roo Code's alike).
  const cut = full ? null : cutArray(apiRead);
  let api = cut ?? arrayOf(apiPath, apiRead, state);
  const uiMessages = arrayOf(uiPath, listedBytes(uiPath, state), state);
  const ui = uiMessages === null ? null : readUiMessages(agent, uiMessages);
  if (ui !== null && ui.badRecords > 0) state.badLines.push({ path: uiPath, count: ui.badRecords });
  // Memoised here, not per conversation read: a conversation read again whole asks again.
  let fallback: { model: string | undefined } | undefined;
  const fallbackModel = (): string | undefined => (fallback ??= { model: metadataModel(dir, state) }).model;
  let conversation = readConversation({ messages: api ?? [], ui, full, fallbackModel, cut: cut !== null });
  if (conversation.needWhole) {
    api = arrayOf(apiPath, apiRead, state);
    conversation = readConversation({ messages: api ?? [], ui, full, fallbackModel });
  }
  if (conversation.badRecords > 0) state.badLines.push({ path: apiPath, count: conversation.badRecords });
  return { id: basename(dir), conversation, ui, item: historyItem(dir, state), held: api !== null || uiMessages !== null };
}

const statusOf: Record<string, SubagentStatus> = { completed: 'completed', active: 'running', delegated: 'running' };

function span(turns: readonly Turn[], ui: UiFacts | null): { started_at: string | null; ended_at: string | null } {
  const s = { started_at: null as string | null, ended_at: null as string | null };
  for (const t of turns) noteTime(s, t.at ?? undefined);
  if (ui?.first != null) noteTime(s, msIso(ui.first) ?? undefined);
  if (ui?.last != null) noteTime(s, msIso(ui.last) ?? undefined);
  return s;
}

/** Nests each task's subtasks under its `new_task` calls: by the child id the result names, else in order. */
function nest(task: TaskRead, children: Map<string, TaskRead[]>, seen: Set<string>): void {
  const mine = (children.get(task.id) ?? []).filter((c) => !seen.has(c.id));
  const free = [...mine];
  for (const launch of task.conversation.launches) {
    const child =
      (launch.childId === null ? undefined : free.find((c) => c.id === launch.childId)) ?? (launch.childId === null ? free[0] : undefined);
    if (child === undefined) continue;
    free.splice(free.indexOf(child), 1);
    seen.add(child.id);
    nest(child, children, seen);
    launch.call.subagent = subagentOf(child);
  }
}

function subagentOf(task: TaskRead): Subagent {
  const sub = newSubagent(task.id);
  sub.name = task.item.mode ?? null;
  sub.description = task.item.task ?? null;
  sub.turns = task.conversation.turns;
  for (const m of [...task.conversation.models, ...(task.ui?.models ?? [])]) noteModel(sub.models, m);
  Object.assign(sub, span(sub.turns, task.ui));
  sub.status = statusOf[task.item.status ?? ''] ?? null;
  sub.totals = task.ui?.totals ?? emptyTotals();
  const apart = usageApart(task.ui, task.conversation.placedRequests);
  if (apart.length > 0) sub.usage_apart = apart;
  return sub;
}

function recordOf(agent: ClineAgentId, root: TaskRead): { record: SessionRecord; cwds: string[] } {
  const record = newRecord(agent, root.id);
  record.turns = root.conversation.turns;
  for (const m of [...root.conversation.models, ...(root.ui?.models ?? [])]) noteModel(record.models, m);
  Object.assign(record, span(record.turns, root.ui));
  record.totals = root.ui?.totals ?? (emptyTotals() satisfies Totals);
  const apart = usageApart(root.ui, root.conversation.placedRequests);
  if (apart.length > 0) record.usage_apart = apart;
  const cwds: string[] = [];
  for (const d of [root.item.workspace, ...root.conversation.cwds]) if (d !== undefined && !cwds.includes(d)) cwds.push(d);
  record.repo = cwds[0] ?? '';
  return { record, cwds };
}

export async function parseTask(agent: ClineAgentId, session: DiscoveredSession, full: boolean): Promise<ParsedSession> {
  const state: ReadState = { badLines: [], problems: [], listed: new Set(session.files.map((f) => f.path)) };
  const root = readTask(agent, session.path, full, state);
  // The subtask folders discovery listed with this task, each read once, grouped by parent.
  const dirs = [...new Set(session.files.map((f) => dirname(f.path)))].filter((d) => d !== session.path);
  const children = new Map<string, TaskRead[]>();
  for (const dir of dirs) {
    const child = readTask(agent, dir, full, state);
    const parent = child.item.parentId ?? root.id;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  nest(root, children, new Set([root.id]));
  if (!root.held) return { record: null, cwds: [], badLines: state.badLines, problems: state.problems };
  const { record, cwds } = recordOf(agent, root);
  for (const list of children.values())
    for (const c of list) for (const d of [c.item.workspace, ...c.conversation.cwds]) if (d && !cwds.includes(d)) cwds.push(d);
  return { record, cwds, badLines: state.badLines, problems: state.problems };
}
