// Folds one agent's wire lines into entries and applies `context.undo` the way Kimi Code's own
// replay does: the last N real-user turns (never past a compaction or clear) are marked
// superseded. The record drops superseded entries; the message index keeps them.
import { asArray, asObject, str, type JsonObject } from '../../json/narrow.js';
import { noteModel, noteTime } from '../../record/draft.js';
import { addTotals, emptyTotals, type UsageApart } from '../../record/types.js';
import {
  isRealUser,
  type EntryBase,
  type StepEntry,
  type TurnRef,
  type UserEntry,
  type WireEntry,
  type WireLog,
  type WireToolCall,
} from './wire-entry.js';
import { contentText, messageToolCalls, type PromptOrigin, type WireLine } from './wire-line.js';

const eventText = { compaction: 'context compacted', clear: 'context cleared', interrupted: 'interrupted' } as const;

const agentLinkPattern = /^agent_id:\s*([A-Za-z0-9._-]{1,128})\s*$/m;

export class WireFold {
  private readonly entries: WireEntry[] = [];
  private readonly calls = new Map<string, WireToolCall>();
  private readonly pending = new Set<WireToolCall>();
  private readonly steps = new Map<string, StepEntry>();
  private readonly spawnLinks: { childId: string; toolCallId: string }[] = [];
  private readonly revisions = new Map<number, number>();
  private readonly usage = emptyTotals();
  private readonly usageRecords: UsageApart[] = [];
  /** When each step's usage was written (its step.end line). */
  private readonly stepEnds = new Map<StepEntry, string | null>();
  private readonly requestModels: string[] = [];
  private readonly usageModels: string[] = [];
  private readonly cwds: string[] = [];
  private readonly span = { started_at: null as string | null, ended_at: null as string | null };
  private openStep: StepEntry | null = null;
  private current: TurnRef | null = null;
  private activeTurns = 0;
  private floor = 0;
  private sawPromptLane = false;
  private sawLoopEvents = false;
  private sawUsageRecord = false;
  private lastModel: string | undefined;
  private alias: string | undefined;
  private profileName: string | undefined;
  private records = 0;
  private lineNo = 0;
  private minMs = Number.POSITIVE_INFINITY;
  private maxMs = Number.NEGATIVE_INFINITY;
  private minAt: string | null = null;
  private maxAt: string | null = null;
  /** A line's time was written as text (or epoch ms outside `epochIso`'s range): `noteTime` on each line. */
  private textTimes = false;

  constructor(private readonly agentId: string) {}

  /** Applies one wire line (1-based `lineNo`, used for ids of lines that carry none). */
  apply({ event, at, ms }: WireLine, lineNo: number): void {
    this.records++;
    this.noteSpan(at, ms);
    this.lineNo = lineNo;
    switch (event.type) {
      case 'prompt':
        this.sawPromptLane = true;
        this.prompt(event.text, event.origin, 'prompt', event.uuid ?? this.lineId(), at);
        return;
      case 'steer':
        if (isRealUser(event.origin) && event.text.trim() !== '')
          this.push({ kind: 'user', text: event.text, lane: 'steer', trigger: null, ...this.base(event.uuid ?? this.lineId(), at) });
        return;
      case 'message':
        this.message(event.message, event.origin, at);
        return;
      case 'step.begin':
        this.beginStep(event.uuid ?? this.lineId(), at);
        return;
      case 'step.end': {
        const step = event.uuid === undefined ? this.openStep : this.steps.get(event.uuid);
        if (step !== undefined && step !== null && event.usage !== undefined) {
          step.usage = event.usage;
          this.stepEnds.set(step, at);
        }
        if (step === this.openStep) this.openStep = null;
        return;
      }
      case 'part': {
        if (event.text.trim() === '') return;
        const step = this.stepFor(event.stepUuid, at);
        step.parts.push({ recordId: this.id(event.uuid ?? this.lineId()), kind: event.kind, text: event.text, at });
        return;
      }
      case 'tool.call':
        this.addCall(this.stepFor(event.stepUuid, at), event.toolCallId, event.name, event.args, at);
        return;
      case 'tool.result':
        this.result(event.toolCallId, event.output, event.isError);
        return;
      case 'usage': {
        // A call another agent made is that agent's to count (its own wire records it too).
        if (event.agentId !== undefined && event.agentId !== this.agentId) return;
        this.sawUsageRecord = true;
        addTotals(this.usage, event.usage);
        const model = this.lastModel ?? event.model;
        this.usageRecords.push({ at, ...(model === undefined ? {} : { model }), usage: event.usage });
        noteModel(this.usageModels, event.model);
        return;
      }
      case 'llm.request':
        if (event.model === undefined) return;
        this.lastModel = event.model;
        noteModel(this.requestModels, event.model);
        // The request is written just after its step.begin: it names the model of the open step.
        if (this.openStep !== null) this.openStep.model = event.model;
        return;
      case 'config':
        if (event.cwd !== undefined && !this.cwds.includes(event.cwd)) this.cwds.push(event.cwd);
        this.alias ??= event.modelAlias;
        this.profileName ??= event.profileName;
        return;
      case 'undo':
        this.undo(event.count, at);
        return;
      case 'clear':
      case 'compaction':
        this.floor = this.activeTurns;
        this.closePending();
        this.push({ kind: 'event', event: event.type, text: eventText[event.type], ...this.base(this.lineId(), at) });
        return;
      case 'cancel':
        this.closePending();
        this.push({ kind: 'event', event: 'interrupted', text: eventText.interrupted, ...this.base(this.lineId(), at) });
        return;
      case 'spawned':
        this.spawnLinks.push({ childId: event.subagentId, toolCallId: event.parentToolCallId });
        return;
      case 'other':
        return;
    }
  }

  finish(): WireLog {
    if (!this.textTimes) this.widenByMs();
    for (const link of this.spawnLinks) {
      const call = this.calls.get(link.toolCallId);
      if (call !== undefined) call.childAgentId = link.childId;
    }
    let usage = this.usage;
    let usageLog = this.usageRecords;
    if (!this.sawUsageRecord) {
      // Older wires state usage only on step.end: one count per model call, summed once.
      usage = emptyTotals();
      usageLog = [];
      for (const e of this.entries) {
        if (e.kind !== 'step' || e.usage === undefined) continue;
        addTotals(usage, e.usage);
        usageLog.push({ at: this.stepEnds.get(e) ?? e.at, ...(e.model === undefined ? {} : { model: e.model }), usage: e.usage });
      }
    }
    const models =
      this.requestModels.length > 0
        ? this.requestModels
        : this.usageModels.length > 0
          ? this.usageModels
          : this.alias !== undefined
            ? [this.alias]
            : [];
    const fallback = models[0];
    for (const e of this.entries) if (e.kind === 'step') e.model ??= fallback;
    return {
      agentId: this.agentId,
      entries: this.entries,
      usage,
      usageLog,
      models: [...models],
      cwds: this.cwds,
      profileName: this.profileName,
      span: this.span,
      records: this.records,
    };
  }

  /** The id of the line being applied when it carries none: made only then (most lines carry one). */
  private lineId(): string {
    return `line-${this.lineNo}`;
  }

  /**
   * Widens the span by one line's time. While every time was written as epoch ms, the earliest and
   * latest are kept as numbers and their ISO strings (of one length, so they order as the numbers
   * do) and the span is widened by those two once: two number comparisons a line instead of two
   * string ones (`noteTime` on each line was ~2% of each thread in a cold scan of the bench home's
   * Kimi sessions). The first time written as text widens the span by them, then every line does.
   */
  private noteSpan(at: string | null, ms: number | undefined): void {
    if (at === null) return;
    if (ms !== undefined && !this.textTimes) {
      if (ms < this.minMs) {
        this.minMs = ms;
        this.minAt = at;
      }
      if (ms > this.maxMs) {
        this.maxMs = ms;
        this.maxAt = at;
      }
      return;
    }
    if (!this.textTimes) this.widenByMs();
    this.textTimes = true;
    noteTime(this.span, at);
  }

  private widenByMs(): void {
    noteTime(this.span, this.minAt ?? undefined);
    noteTime(this.span, this.maxAt ?? undefined);
  }

  private id(native: string): string {
    return `${this.agentId}:${native}`;
  }

  private base(native: string, at: string | null): EntryBase {
    return { recordId: this.id(native), at, turn: this.current, superseded: null };
  }

  private push(entry: WireEntry): void {
    this.entries.push(entry);
  }

  private prompt(text: string, origin: PromptOrigin, lane: UserEntry['lane'], native: string, at: string | null): void {
    if (isRealUser(origin)) {
      this.closePending();
      this.openStep = null;
      this.activeTurns++;
      const revision = (this.revisions.get(this.activeTurns) ?? 0) + 1;
      this.revisions.set(this.activeTurns, revision);
      this.current = { index: this.activeTurns, revision };
      if (text.trim() !== '') this.push({ kind: 'user', text, lane, trigger: null, ...this.base(native, at) });
    } else if (origin.kind === 'system_trigger' && text.trim() !== '') {
      // A machine-sent prompt: no turn of its own; in a subagent's wire it is the task it was given.
      this.push({ kind: 'user', text, lane, trigger: origin.name ?? 'system', ...this.base(native, at), turn: null });
    }
  }

  /** `context.append_message` duplicates the prompt lane; it is read only in wires without one. */
  private message(message: JsonObject, origin: PromptOrigin, at: string | null): void {
    const role = str(message, 'role');
    if (role === 'user' && !this.sawPromptLane) {
      this.prompt(contentText(message['content']), origin, 'message', this.lineId(), at);
    } else if (role === 'assistant' && !this.sawLoopEvents) {
      const step = this.newStep(this.lineId(), at);
      const content = message['content'];
      if (typeof content === 'string' && content.trim() !== '')
        step.parts.push({ recordId: step.recordId, kind: 'text', text: content, at });
      for (const raw of asArray(content) ?? []) {
        const part = asObject(raw);
        const kind = str(part, 'type');
        if (kind !== 'text' && kind !== 'think') continue;
        const t = str(part, kind) ?? '';
        if (t.trim() !== '') step.parts.push({ recordId: step.recordId, kind, text: t, at });
      }
      for (const call of messageToolCalls(message)) this.addCall(step, call.id, call.name, call.args, at);
      this.openStep = null;
    } else if (role === 'tool' && !this.sawLoopEvents) {
      const id = str(message, 'toolCallId');
      if (id !== undefined) this.result(id, contentText(message['content']), false);
    }
  }

  private newStep(native: string, at: string | null): StepEntry {
    const step: StepEntry = { kind: 'step', model: this.lastModel, parts: [], calls: [], usage: undefined, ...this.base(native, at) };
    this.push(step);
    this.steps.set(native, step);
    return step;
  }

  private beginStep(native: string, at: string | null): void {
    this.sawLoopEvents = true;
    this.openStep = this.newStep(native, at);
  }

  private stepFor(stepUuid: string | undefined, at: string | null): StepEntry {
    this.sawLoopEvents = true;
    const known = stepUuid === undefined ? undefined : this.steps.get(stepUuid);
    if (known !== undefined) return known;
    if (this.openStep !== null) return this.openStep;
    // A part with no step.begin before it (drift): it becomes a step of its own.
    this.openStep = this.newStep(stepUuid ?? this.lineId(), at);
    return this.openStep;
  }

  private addCall(step: StepEntry, id: string, name: string, args: JsonObject | undefined, at: string | null): void {
    const call: WireToolCall = { id, name, args, at, output: null, isError: false, interrupted: false, childAgentId: null };
    step.calls.push(call);
    this.calls.set(id, call);
    this.pending.add(call);
  }

  private result(toolCallId: string, output: string, isError: boolean): void {
    const call = this.calls.get(toolCallId);
    if (call === undefined) return;
    call.output = output;
    call.isError = isError;
    call.interrupted = false;
    this.pending.delete(call);
    // Kimi Code (protocol 1.4) names the launched agent on the Agent tool's result.
    if (call.childAgentId === null) {
      const head = output.slice(0, 4096);
      call.childAgentId = head.includes('agent_id:') ? (agentLinkPattern.exec(head)?.[1] ?? null) : null;
    }
  }

  private closePending(): void {
    for (const call of this.pending) call.interrupted = true;
    this.pending.clear();
  }

  private undo(count: number, at: string | null): void {
    const n = Math.min(count, this.activeTurns - this.floor);
    for (let k = 0; k < n; k++) {
      const index = this.activeTurns;
      const revision = this.revisions.get(index) ?? 0;
      for (const e of this.entries) {
        if (e.superseded === null && e.turn !== null && e.turn.index === index && e.turn.revision === revision)
          e.superseded = { at, reason: 'context_undo' };
      }
      this.activeTurns--;
    }
    const rev = this.revisions.get(this.activeTurns);
    this.current = this.activeTurns > 0 && rev !== undefined ? { index: this.activeTurns, revision: rev } : null;
    this.openStep = null;
    this.pending.clear();
  }
}
