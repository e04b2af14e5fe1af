// Builds one Codex thread (one rollout file) into turns, totals, models and spawn launches as its
// lines stream past. Codex writes several things twice (a user message as a `response_item` and
// as an `event_msg`, reasoning as an item summary and as `agent_reasoning` events); each twin is
// kept in a lane and one lane per kind survives at the end, so each appears once.
import { noteModel, noteTime } from '../../record/draft.js';
import { clipMessage, clipOutput } from '../../record/clip.js';
import { addTurnUsage } from '../../record/turn-usage.js';
import { emptyTotals } from '../../record/types.js';
import type { SubagentStatus, Totals, ToolCall, Turn, UsageApart } from '../../record/types.js';
import { asArray, isObject, str, text, type JsonObject } from '../../json/narrow.js';
import type { RolloutMeta } from './rollout-meta.js';
import { applyOutput, type OpenCall } from './tool-calls.js';
import { totalsFromUsage } from './tokens.js';
import { parseSpawnResult, type SpawnLaunch } from './spawn-launch.js';

export interface DetailNeeds {
  /** Tool inputs, outputs, statuses and a launch's last words (the `full` level). */
  tools: boolean;
  /** Assistant and reasoning text (every level but `summary`). */
  texts: boolean;
}

export interface RolloutThread {
  meta: RolloutMeta | undefined;
  turns: Turn[];
  models: string[];
  cwds: string[];
  totals: Totals;
  /** Usage that rode on no assistant turn (see `UsageApart`). */
  usageApart: UsageApart[];
  span: { started_at: string | null; ended_at: string | null };
  status: SubagentStatus | null;
  /** The thread's last assistant text, clipped as a tool output (a launch call's output). */
  lastWords: string | undefined;
  launches: SpawnLaunch[];
  /** False when nothing in the file was a Codex session (no meta, no turns, no usage). */
  found: boolean;
}

type Lane = 'item' | 'event';

interface Entry {
  turn: Turn;
  lane: Lane | undefined;
}

export const eventText = {
  interrupted: 'interrupted',
  compacted: 'context compacted',
} as const;

const counters = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_creation_tokens', 'reasoning_tokens'] as const;

/** How much each counter grew from one cumulative figure to the next. */
function growth(before: Totals, after: Totals): Totals {
  const out = emptyTotals();
  for (const k of counters) out[k] = after[k] - before[k];
  return out;
}

export class ThreadBuilder {
  meta: RolloutMeta | undefined;
  private readonly entries: Entry[] = [];
  private readonly models: string[] = [];
  private readonly cwds: string[] = [];
  private readonly span = { started_at: null as string | null, ended_at: null as string | null };
  private totals: Totals = emptyTotals();
  private readonly apart: UsageApart[] = [];
  private sawUsage = false;
  private model: string | undefined;
  private eventUsers = false;
  private itemReasoning = false;
  /** An interruption (or compaction) was noted and nothing has been said since: its twin is skipped. */
  private interruptionOpen = false;
  private compactionOpen = false;
  private readonly calls = new Map<string, OpenCall>();
  /** Calls known so far only from an end event, whose item may still follow. */
  private readonly fromEvents = new Set<string>();
  private readonly waiting = new Set<ToolCall>();
  private readonly launches: SpawnLaunch[] = [];
  private readonly launchByCall = new Map<string, SpawnLaunch>();
  private status: SubagentStatus | null = null;
  private failedSinceStart = false;
  private lastWords: string | undefined;
  private finalMessage: string | undefined;

  constructor(private readonly needs: DetailNeeds) {}

  noteLine(at: string | null): void {
    if (at !== null) noteTime(this.span, at);
  }

  setMeta(meta: RolloutMeta): void {
    this.meta = meta;
    if (meta.cwd !== undefined) this.noteCwd(meta.cwd);
  }

  noteCwd(cwd: string): void {
    if (!this.cwds.includes(cwd)) this.cwds.push(cwd);
  }

  turnContext(payload: JsonObject): void {
    const cwd = text(payload, 'cwd');
    if (cwd !== undefined) this.noteCwd(cwd);
    const model = text(payload, 'model');
    if (model !== undefined) {
      this.model = model;
      noteModel(this.models, model);
    }
  }

  private push(turn: Turn, lane: Lane | undefined): void {
    this.entries.push({ turn, lane });
    if (turn.role === 'assistant' || turn.role === 'reasoning') {
      this.interruptionOpen = false;
      this.compactionOpen = false;
    }
  }

  /** A user turn from a `response_item` (lane `item`), a user_message event, or another agent. */
  user(textValue: string, at: string | null, lane: Lane | undefined): void {
    if (textValue === '') return;
    if (lane === 'event') {
      this.eventUsers = true;
      // A v2 child may hear its task both as an inter-agent message and as a user message.
      const last = this.entries[this.entries.length - 1];
      if (last !== undefined && last.lane === undefined && last.turn.role === 'user' && last.turn.text === clipMessage(textValue)) return;
    }
    this.push({ role: 'user', at, text: clipMessage(textValue) }, lane);
  }

  assistant(payload: JsonObject, at: string | null): void {
    const parts = asArray(payload.content) ?? (typeof payload.content === 'string' ? [payload.content] : []);
    const texts: string[] = [];
    for (const p of parts) {
      const t = typeof p === 'string' ? p : isObject(p) && (p.type === 'output_text' || p.type === 'text') ? str(p, 'text') : undefined;
      if (t !== undefined && t !== '') texts.push(t);
    }
    if (texts.length === 0) return;
    const joined = this.needs.texts ? texts.join('\n') : '';
    const turn: Turn = { role: 'assistant', at, text: clipMessage(joined), tool_calls: [] };
    if (this.model !== undefined) turn.model = this.model;
    this.push(turn, undefined);
    if (this.needs.tools) this.lastWords = joined;
  }

  /** A reasoning summary in the clear: `summary_text` parts of an item, or an `agent_reasoning` event. */
  reasoning(texts: readonly string[], at: string | null, lane: Lane): void {
    const kept = texts.filter((t) => t.trim() !== '');
    if (kept.length === 0) return;
    if (lane === 'item') this.itemReasoning = true;
    this.push({ role: 'reasoning', at, text: this.needs.texts ? clipMessage(kept.join('\n\n')) : '' }, lane);
  }

  /** Attaches a call to the assistant turn it follows, or opens an assistant turn with no text. */
  call(open: OpenCall, callId: string | undefined, at: string | null): SpawnLaunch | undefined {
    if (callId !== undefined) {
      const known = this.calls.get(callId);
      // An MCP end event can precede its function_call item: the item only fills the call in.
      if (known !== undefined && this.fromEvents.delete(callId)) {
        Object.assign(known.call, { ...open.call, ...known.call });
        return undefined;
      }
      this.calls.set(callId, open);
    }
    const last = this.entries[this.entries.length - 1]?.turn;
    if (last !== undefined && last.role === 'assistant' && last.tool_calls !== undefined) last.tool_calls.push(open.call);
    else {
      const turn: Turn = { role: 'assistant', at, text: '', tool_calls: [open.call] };
      if (this.model !== undefined) turn.model = this.model;
      this.push(turn, undefined);
    }
    this.interruptionOpen = false;
    this.compactionOpen = false;
    if (this.needs.tools && open.call.status === undefined) this.waiting.add(open.call);
    if (open.spawn !== undefined) {
      const launch: SpawnLaunch = { call: open.call, callId, kind: open.spawn, at, failed: false };
      this.launches.push(launch);
      if (callId !== undefined) this.launchByCall.set(callId, launch);
      return launch;
    }
    return undefined;
  }

  /** A call seen first (or only) as an end event: a later item with its id fills it in. */
  eventCall(open: OpenCall, callId: string | undefined, at: string | null): void {
    this.call(open, callId, at);
    if (callId !== undefined) this.fromEvents.add(callId);
  }

  /** The call a `call_id` names, if this thread made it. */
  callById(callId: string): ToolCall | undefined {
    return this.calls.get(callId)?.call;
  }

  launchFor(callId: string): SpawnLaunch | undefined {
    return this.launchByCall.get(callId);
  }

  output(callId: string, output: unknown): void {
    const open = this.calls.get(callId);
    if (open === undefined) return;
    const launch = this.launchByCall.get(callId);
    if (launch !== undefined) parseSpawnResult(launch, output);
    if (!this.needs.tools) return;
    applyOutput(open.call, output);
    this.waiting.delete(open.call);
  }

  interruption(at: string | null, reason: string | undefined): void {
    for (const call of this.waiting) if (call.status === undefined) call.status = 'interrupted';
    this.waiting.clear();
    if (this.interruptionOpen) return;
    this.interruptionOpen = true;
    const textValue = reason === undefined || reason === 'interrupted' ? eventText.interrupted : `${eventText.interrupted} (${reason})`;
    this.push({ role: 'event', at, text: textValue }, undefined);
  }

  compaction(at: string | null): void {
    if (this.compactionOpen) return;
    this.compactionOpen = true;
    this.push({ role: 'event', at, text: eventText.compacted }, undefined);
  }

  /**
   * Replaces the totals with a cumulative usage object (never adds). What the counters grew by since
   * the last one is this request's usage: it rides on the assistant turn just written, or is kept
   * apart with its time when the last entry is not one.
   */
  usage(usage: JsonObject, at: string | null): void {
    const next = totalsFromUsage(usage);
    let grown = growth(this.totals, next);
    if (counters.some((k) => grown[k] < 0)) {
      // Counters that went down started over, and the totals with them: so does what turns carry.
      for (const e of this.entries) delete e.turn.usage;
      this.apart.length = 0;
      grown = next;
    }
    this.totals = next;
    this.sawUsage = true;
    if (!counters.some((k) => grown[k] > 0)) return;
    const last = this.entries[this.entries.length - 1]?.turn;
    if (last !== undefined && last.role === 'assistant') addTurnUsage(last, grown);
    else this.apart.push({ at, ...(this.model === undefined ? {} : { model: this.model }), usage: grown });
  }

  taskStarted(): void {
    this.status = 'running';
    this.failedSinceStart = false;
  }

  taskComplete(payload: JsonObject): void {
    this.status = this.failedSinceStart || isObject(payload.error) ? 'failed' : 'completed';
    const last = text(payload, 'last_agent_message');
    if (last !== undefined) this.finalMessage = last;
  }

  turnAborted(): void {
    this.status = 'stopped';
  }

  error(): void {
    this.failedSinceStart = true;
    this.status = 'failed';
  }

  finish(): RolloutThread {
    const turns: Turn[] = [];
    for (const e of this.entries) {
      // With user_message events present they are what the person typed; the item twins (and any
      // injected item the prefix list missed) go. Item summaries win over agent_reasoning events.
      if (e.lane === 'item' && e.turn.role === 'user' && this.eventUsers) continue;
      if (e.lane === 'event' && e.turn.role === 'reasoning' && this.itemReasoning) continue;
      turns.push(e.turn);
    }
    const words = this.lastWords ?? (this.needs.tools ? this.finalMessage : undefined);
    return {
      meta: this.meta,
      turns,
      models: this.models,
      cwds: this.cwds,
      totals: this.totals,
      usageApart: this.apart,
      span: this.span,
      status: this.status,
      lastWords: words === undefined ? undefined : clipOutput(words),
      launches: this.launches,
      found: this.meta !== undefined || this.entries.length > 0 || this.sawUsage,
    };
  }
}
