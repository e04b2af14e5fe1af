// Builds the record from a Copilot CLI events file. The main agent's events become turns; events a
// sub-agent wrote (tagged with its `agentId`, or the older `parentToolCallId`) become the turns of
// the subagent nested in the tool call that launched it (`subagent.started` names that call).
// Tokens: each process lifetime of a session ends with `session.shutdown`, whose `modelMetrics` state
// what every request of that lifetime (main agent and sub-agents) used; they are summed per model.
// The resume checkpoint restores only cost and premium requests, never token counts, so lifetimes
// do not overlap. Inputs are taken to include cache reads (Copilot's OpenAI-style accounting, as
// ccusage reads Copilot's own telemetry): the record counts them once, as cache reads.
import { asObject, num, str, text, type JsonObject } from '../../json/narrow.js';
import { newRecord, newSubagent, noteModel, noteTime } from '../../record/draft.js';
import { clipMessage } from '../../record/clip.js';
import { emptyTotals, type SessionRecord, type Subagent, type Totals, type ToolCall, type Turn } from '../../record/types.js';
import type { CopilotEvent } from './event.js';
import type { EventsFile } from './read-events.js';
import { completeCall, requestCall } from './tool-call.js';

/** What a thread (the main agent or one sub-agent) has built so far. */
interface Thread {
  turns: Turn[];
  /** A reasoning event came since the thread's last message: its `reasoningText` repeats it. */
  reasoned: boolean;
  model: string | undefined;
}

/** A `user.message` the person typed; one with a `source` (a skill, another agent, autopilot) was injected. */
export function isTyped(data: JsonObject): boolean {
  return text(data, 'source') === undefined && data['isAutopilotContinuation'] !== true;
}

/** Shutdown usage, each token counted once: cache reads taken out of the input they are part of. */
export function usageOf(value: unknown): Totals | undefined {
  const u = asObject(value);
  if (u === undefined) return undefined;
  const t = emptyTotals();
  const input = num(u, 'inputTokens') ?? 0;
  const cacheRead = num(u, 'cacheReadTokens') ?? 0;
  t.input_tokens = Math.max(0, input - cacheRead);
  t.cache_read_tokens = Math.min(cacheRead, input);
  t.cache_creation_tokens = num(u, 'cacheWriteTokens') ?? 0;
  t.output_tokens = num(u, 'outputTokens') ?? 0;
  t.reasoning_tokens = num(u, 'reasoningTokens') ?? 0;
  return t;
}

class Builder {
  readonly main: Thread = { turns: [], reasoned: false, model: undefined };
  private readonly subagents = new Map<string, { sub: Subagent; thread: Thread }>();
  private readonly calls = new Map<string, ToolCall>();
  /** Sub-agent instance ids mapped to the tool call that launched them. */
  private readonly agentCalls = new Map<string, string>();

  constructor(
    readonly record: SessionRecord,
    private readonly full: boolean,
  ) {}

  private subagentFor(callId: string, at: string | null): { sub: Subagent; thread: Thread } {
    let s = this.subagents.get(callId);
    if (s === undefined) {
      s = { sub: newSubagent(callId), thread: { turns: [], reasoned: false, model: undefined } };
      s.sub.turns = s.thread.turns;
      this.subagents.set(callId, s);
      const call = this.calls.get(callId);
      if (call !== undefined) call.subagent = s.sub;
    }
    noteTime(s.sub, at ?? undefined);
    return s;
  }

  private threadOf(e: CopilotEvent): Thread {
    const callId = e.parentToolCallId ?? (e.agentId === undefined ? undefined : this.agentCalls.get(e.agentId));
    return callId === undefined ? this.main : this.subagentFor(callId, e.at).thread;
  }

  private noteAssistantModel(e: CopilotEvent, model: string | undefined): void {
    const callId = e.parentToolCallId ?? (e.agentId === undefined ? undefined : this.agentCalls.get(e.agentId));
    if (callId === undefined) noteModel(this.record.models, model);
    else noteModel(this.subagentFor(callId, e.at).sub.models, model);
  }

  add(e: CopilotEvent): void {
    const d = e.data;
    switch (e.type) {
      case 'session.start':
      case 'session.resume': {
        const context = asObject(d['context']);
        const cwd = text(context, 'cwd');
        if (cwd !== undefined && this.record.repo === '') this.record.repo = cwd;
        const branch = text(context, 'branch');
        if (branch !== undefined) this.record.branch = branch;
        this.main.model = text(d, 'selectedModel') ?? this.main.model;
        break;
      }
      case 'session.model_change':
        this.main.model = text(d, 'newModel') ?? this.main.model;
        break;
      case 'user.message': {
        const said = (str(d, 'content') ?? '').trim();
        if (said === '') break;
        this.threadOf(e).turns.push({ role: isTyped(d) ? 'user' : 'event', at: e.at, text: clipMessage(said) });
        break;
      }
      case 'assistant.reasoning': {
        const t = this.threadOf(e);
        const thought = (str(d, 'content') ?? '').trim();
        if (thought === '') break;
        t.turns.push({ role: 'reasoning', at: e.at, text: clipMessage(thought) });
        t.reasoned = true;
        break;
      }
      case 'assistant.message':
        this.message(e);
        break;
      case 'tool.execution_complete': {
        const call = this.calls.get(text(d, 'toolCallId') ?? '');
        if (call !== undefined) completeCall(call, d, this.full);
        break;
      }
      case 'subagent.started': {
        const callId = text(d, 'toolCallId');
        if (callId === undefined) break;
        if (e.agentId !== undefined) this.agentCalls.set(e.agentId, callId);
        const { sub, thread } = this.subagentFor(callId, e.at);
        thread.model = text(d, 'model') ?? thread.model;
        sub.name = text(d, 'agentName') ?? text(d, 'agentDisplayName') ?? sub.name;
        sub.description = text(d, 'agentDescription') ?? sub.description;
        sub.status = 'running';
        noteModel(sub.models, text(d, 'model'));
        break;
      }
      case 'subagent.completed':
      case 'subagent.failed': {
        const callId = text(d, 'toolCallId');
        if (callId === undefined) break;
        const { sub } = this.subagentFor(callId, e.at);
        sub.status = e.type === 'subagent.failed' ? 'failed' : d['cancelled'] === true ? 'stopped' : 'completed';
        noteModel(sub.models, text(d, 'model'));
        break;
      }
      case 'session.compaction_complete':
        if (d['success'] === true) this.main.turns.push({ role: 'event', at: e.at, text: 'context compacted' });
        break;
      case 'abort':
        this.threadOf(e).turns.push({ role: 'event', at: e.at, text: 'interrupted' });
        for (const call of this.calls.values()) if (call.status === undefined) call.status = 'interrupted';
        break;
      case 'session.error': {
        const message = text(d, 'message');
        this.main.turns.push({ role: 'event', at: e.at, text: clipMessage(`error: ${message ?? 'the session failed'}`) });
        break;
      }
      case 'session.shutdown':
        for (const [model, metric] of Object.entries(asObject(d['modelMetrics']) ?? {})) {
          const usage = usageOf(asObject(metric)?.['usage']);
          if (usage === undefined) continue;
          addInto(this.record.totals, usage);
          noteModel(this.record.models, model);
        }
        break;
      default:
        break;
    }
  }

  private message(e: CopilotEvent): void {
    const d = e.data;
    const t = this.threadOf(e);
    const reasoning = (str(d, 'reasoningText') ?? '').trim();
    if (reasoning !== '' && !t.reasoned) t.turns.push({ role: 'reasoning', at: e.at, text: clipMessage(reasoning) });
    t.reasoned = false;
    const calls: ToolCall[] = [];
    for (const raw of Array.isArray(d['toolRequests']) ? d['toolRequests'] : []) {
      const req = asObject(raw);
      const name = text(req, 'name');
      const id = text(req, 'toolCallId');
      if (req === undefined || name === undefined) continue;
      const call = requestCall(name, req['arguments'], this.full);
      if (id !== undefined) {
        this.calls.set(id, call);
        const launched = this.subagents.get(id);
        if (launched !== undefined) call.subagent = launched.sub;
      }
      calls.push(call);
    }
    const said = (str(d, 'content') ?? '').trim();
    if (said === '' && calls.length === 0) return;
    // A sub-agent runs its own model (named when it starts or ends), never the main agent's.
    const model = text(d, 'model') ?? t.model;
    const turn: Turn = { role: 'assistant', at: e.at, text: clipMessage(said), tool_calls: calls };
    if (model !== undefined) turn.model = model;
    this.noteAssistantModel(e, model);
    t.turns.push(turn);
  }
}

function addInto(a: Totals, b: Totals): void {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cache_read_tokens += b.cache_read_tokens;
  a.cache_creation_tokens += b.cache_creation_tokens;
  a.reasoning_tokens += b.reasoning_tokens;
}

/** The record and the working directory, or null when the file holds no session. */
export function copilotRecord(sessionId: string, file: EventsFile, full = true): { record: SessionRecord; cwds: string[] } | null {
  if (!file.events.some((e) => e.type === 'session.start' || e.type === 'user.message')) return null;
  const record = newRecord('copilot', sessionId);
  const b = new Builder(record, full);
  for (const e of file.events) {
    noteTime(record, e.at ?? undefined);
    b.add(e);
  }
  for (const at of file.skippedTimes) noteTime(record, at);
  record.turns = b.main.turns;
  return { record, cwds: record.repo === '' ? [] : [record.repo] };
}
