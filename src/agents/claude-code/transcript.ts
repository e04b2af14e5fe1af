// One agent's stream of Claude Code lines (the main session, an inline sidechain or a subagent file)
// turned into turns, models, a time span and token totals.
import { asArray, isObject, num, obj, str, text, type JsonObject } from '../../json/narrow.js';
import { clipInput, clipMessage } from '../../record/clip.js';
import { noteModel, noteTime } from '../../record/draft.js';
import { usageCarrier } from '../../record/turn-usage.js';
import type { ToolCall, Turn } from '../../record/types.js';
import type { LaunchCall, PendingCall, SessionState } from './session-state.js';
import { launchToolNames, recordedPatch, resultFacts, resultOutput, toolCallOf } from './tool-calls.js';
import { UsageTally } from './usage.js';
import { notificationBodies, stripUserText } from './user-text.js';

/** Claude Code's stand-in model on messages it wrote itself (API errors, "No response requested."). */
const syntheticModel = '<synthetic>';

/** A cheap shape check: fixtures and drifted logs carry placeholders where a time should be. */
export function isTimestamp(t: string): boolean {
  return t.length >= 19 && t.charCodeAt(4) === 45 && t.charCodeAt(7) === 45 && t.charCodeAt(10) === 84;
}

function hasNonSpace(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return true;
  }
  return false;
}

function imageLabel(count: number): string {
  return Array.from({ length: count }, () => '[image]').join(' ');
}

export class Transcript {
  readonly turns: Turn[] = [];
  readonly models: string[] = [];
  readonly span: { started_at: string | null; ended_at: string | null } = { started_at: null, ended_at: null };
  readonly usage = new UsageTally();
  /** The text of the first user line: a subagent's prompt, for joining it to its launch. */
  firstPrompt: string | undefined;
  /** The session-wide line number of this transcript's first line. */
  firstSeq = -1;
  /** The session-wide line number each turn began on, so unlaunched sidechains merge back in file order. */
  readonly turnSeqs: number[] = [];
  private readonly idless: PendingCall[] = [];
  private readonly byMessageId = new Map<string, Turn>();
  private userTurns = 0;
  private lastCompaction: Turn | undefined;
  private lastSummary: Turn | undefined;

  constructor(
    private readonly state: SessionState,
    readonly agentId: string | undefined,
  ) {}

  /** Hands one parsed line to the transcript; unknown types are ignored. */
  feed(o: JsonObject, type: unknown): void {
    if (this.firstSeq === -1) this.firstSeq = this.state.seq;
    switch (type) {
      case 'assistant':
        this.assistant(o);
        return;
      case 'user':
        this.user(o);
        return;
      case 'system':
        this.system(o);
        return;
      case 'summary':
        this.summary(o);
        return;
      case 'attachment':
        this.attachment(o);
        return;
      case 'queue-operation': {
        const content = o.content;
        if (typeof content === 'string' && content.includes('<task-notification>'))
          this.state.noteNotifications(notificationBodies(content));
        return;
      }
      default:
        return;
    }
  }

  private time(o: JsonObject): string | null {
    const t = o.timestamp;
    if (typeof t !== 'string' || !isTimestamp(t)) return null;
    noteTime(this.span, t);
    return t;
  }

  private push(turn: Turn): void {
    this.turns.push(turn);
    this.turnSeqs.push(this.state.seq);
    this.lastCompaction = undefined;
    this.lastSummary = undefined;
  }

  private assistant(o: JsonObject): void {
    const msg = obj(o, 'message');
    const at = this.time(o);
    if (msg === undefined) return;
    this.state.sawSession = true;
    const id = text(msg, 'id');
    const rawModel = text(msg, 'model');
    const model = rawModel === syntheticModel ? undefined : rawModel;
    noteModel(this.models, model);
    const from = this.turns.length;
    this.assistantContent(msg.content, id, at, model);
    // The message's counts ride on the turn it made: its assistant turn (which an earlier line of
    // the same id may have made), else the reasoning turn this line made.
    const carrier = (id === undefined ? undefined : this.byMessageId.get(id)) ?? usageCarrier(this.turns, from);
    this.usage.add(id, obj(msg, 'usage'), num(o, 'costUSD'), { turn: carrier, at, model });
  }

  private assistantContent(content: unknown, id: string | undefined, at: string | null, model: string | undefined): void {
    if (typeof content === 'string') {
      if (hasNonSpace(content)) this.appendText(this.assistantTurn(id, at, model), content);
      return;
    }
    const blocks = asArray(content);
    if (blocks === undefined) return;
    // Blocks of one line share a turn even when the message has no id.
    let turn: Turn | undefined;
    for (const b of blocks) {
      if (!isObject(b)) continue;
      const type = b.type;
      if (type === 'text') {
        const t = b.text;
        if (typeof t === 'string' && hasNonSpace(t)) this.appendText((turn ??= this.assistantTurn(id, at, model)), t);
      } else if (type === 'tool_use') {
        this.toolUse(b, (turn ??= this.assistantTurn(id, at, model)), at);
      } else if (type === 'thinking') {
        // Visible thinking only: `redacted_thinking` and a bare `signature` are never read.
        const t = b.thinking;
        if (typeof t === 'string' && hasNonSpace(t))
          this.push({ role: 'reasoning', at, text: this.state.keepMessages ? clipMessage(t.trim()) : '' });
      }
    }
  }

  /** Lines sharing a message id are one turn: the id's turn if there is one, else a new one. */
  private assistantTurn(id: string | undefined, at: string | null, model: string | undefined): Turn {
    if (id !== undefined) {
      const seen = this.byMessageId.get(id);
      if (seen !== undefined) {
        if (seen.model === undefined && model !== undefined) seen.model = model;
        return seen;
      }
    }
    const turn: Turn = { role: 'assistant', at, text: '', tool_calls: [] };
    if (model !== undefined) turn.model = model;
    this.push(turn);
    if (id !== undefined) this.byMessageId.set(id, turn);
    return turn;
  }

  private appendText(turn: Turn, t: string): void {
    if (!this.state.keepMessages) return;
    turn.text = turn.text === '' ? t : `${turn.text}\n${t}`;
  }

  private toolUse(block: JsonObject, turn: Turn, at: string | null): void {
    const call = toolCallOf(block, this.state.full);
    (turn.tool_calls as ToolCall[]).push(call);
    const id = text(block, 'id');
    let launch: LaunchCall | undefined;
    if (launchToolNames.has(call.name)) {
      const input = obj(block, 'input');
      launch = {
        call,
        owner: this,
        toolUseId: id,
        prompt: str(input, 'prompt'),
        description: text(input, 'description'),
        subagentType: text(input, 'subagent_type'),
        at,
        seq: this.state.seq,
      };
      this.state.addLaunch(launch);
    }
    // Below `full` only launches need their results (for the subagent's status and id).
    if (id === undefined) this.idless.push({ call, launch });
    else if (this.state.full || launch !== undefined) this.state.pending.set(id, { call, launch });
  }

  private result(block: JsonObject, toolUseResult: unknown): void {
    const id = text(block, 'tool_use_id');
    let pending: PendingCall | undefined;
    if (id === undefined) pending = this.idless.shift();
    else {
      pending = this.state.pending.get(id);
      if (pending !== undefined) this.state.pending.delete(id);
    }
    if (pending === undefined) return;
    const facts = resultFacts(block, toolUseResult);
    if (this.state.full) {
      if (pending.call.format === 'diff') {
        const patch = recordedPatch(pending.call.path, toolUseResult);
        if (patch !== undefined) pending.call.input = patch;
      }
      pending.call.output = resultOutput(block);
      pending.call.status = facts.status;
      if (facts.exitCode !== undefined) pending.call.exit_code = facts.exitCode;
    }
    if (pending.launch !== undefined) {
      const fallback = facts.status === 'interrupted' ? 'stopped' : facts.status === 'error' ? 'failed' : 'completed';
      this.state.noteLaunchResult(pending.launch, isObject(toolUseResult) ? toolUseResult : undefined, fallback);
    }
  }

  private user(o: JsonObject): void {
    const msg = obj(o, 'message');
    const at = this.time(o);
    if (msg === undefined) return;
    this.state.sawSession = true;
    const content = msg.content;
    let raw: string | undefined;
    let images = 0;
    if (typeof content === 'string') raw = content;
    else if (Array.isArray(content)) {
      let parts: string[] | undefined;
      for (const b of content as unknown[]) {
        if (!isObject(b)) continue;
        const type = b.type;
        // A tool's result is never user text.
        if (type === 'tool_result') this.result(b, o.toolUseResult);
        else if (type === 'text') {
          const t = b.text;
          if (typeof t === 'string') (parts ??= []).push(t);
        } else if (type === 'image') images++;
      }
      if (parts !== undefined) raw = parts.join('\n');
    }
    if (o.isMeta === true) return;
    if (o.isCompactSummary === true) {
      this.compaction(at, undefined);
      return;
    }
    if (raw === undefined && images === 0) return;
    if (this.firstPrompt === undefined && raw !== undefined) this.firstPrompt = raw.trim();
    const stripped = raw === undefined ? undefined : stripUserText(raw);
    if (stripped !== undefined && stripped.notifications.length > 0) this.state.noteNotifications(stripped.notifications);
    // Newer builds mark an injected notification by its origin rather than by a wrapper.
    if (str(obj(o, 'origin'), 'kind') === 'task-notification') return;
    this.userTurn(at, stripped?.text ?? '', stripped?.interrupted === true, images);
  }

  private userTurn(at: string | null, typed: string, interrupted: boolean, images: number): void {
    if (interrupted) {
      this.push({ role: 'event', at, text: typed });
      return;
    }
    const body = images === 0 ? typed : typed === '' ? imageLabel(images) : `${typed}\n${imageLabel(images)}`;
    if (body === '') return;
    // Summary keeps only the first ask, so later user texts are not held.
    const keep = this.state.keepMessages || this.userTurns === 0;
    this.userTurns++;
    this.push({ role: 'user', at, text: keep ? clipMessage(body) : '' });
  }

  /** A prompt the person queued while the agent worked arrives as a `queued_command` attachment. */
  private attachment(o: JsonObject): void {
    const a = obj(o, 'attachment');
    if (a === undefined || a.type !== 'queued_command') return;
    const at = this.time(o);
    const prompt = a.prompt;
    let raw: string | undefined;
    let images = 0;
    if (typeof prompt === 'string') raw = prompt;
    else {
      const parts: string[] = [];
      for (const b of asArray(prompt) ?? []) {
        if (!isObject(b)) continue;
        if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
        else if (b.type === 'image') images++;
      }
      raw = parts.join('\n');
    }
    const stripped = stripUserText(raw);
    if (stripped.notifications.length > 0) this.state.noteNotifications(stripped.notifications);
    if (o.isMeta === true || a.isMeta === true) return;
    const mode = str(a, 'commandMode');
    if (mode !== undefined && mode !== 'prompt') return;
    // A message another agent sent (a teammate's task) is not the person's.
    if (obj(a, 'origin')?.senderTaskId !== undefined) return;
    this.userTurn(at, stripped.text, stripped.interrupted, images);
  }

  private system(o: JsonObject): void {
    const at = this.time(o);
    if (o.subtype === 'compact_boundary') this.compaction(at, obj(o, 'compactMetadata') ?? o);
  }

  /**
   * A compaction is an event, never user text. Newer builds write a `compact_boundary` line and then
   * the summary as an `isCompactSummary` user line: the pair is one event.
   */
  private compaction(at: string | null, meta: JsonObject | undefined): void {
    if (meta === undefined && this.lastCompaction !== undefined && this.turns[this.turns.length - 1] === this.lastCompaction) return;
    const trigger = text(meta, 'trigger');
    const pre = num(meta, 'preTokens');
    const bits = [trigger, pre === undefined ? undefined : `${pre} tokens before`].filter((b): b is string => b !== undefined);
    const turn: Turn = { role: 'event', at, text: bits.length > 0 ? `context compacted (${bits.join(', ')})` : 'context compacted' };
    this.push(turn);
    this.lastCompaction = turn;
  }

  /** `summary` lines (older builds) stand for an earlier, compacted conversation: one event per run. */
  private summary(o: JsonObject): void {
    const s = text(o, 'summary');
    if (s === undefined) return;
    const last = this.lastSummary;
    if (last !== undefined && this.turns[this.turns.length - 1] === last) {
      if (this.state.keepMessages) last.text = `${last.text}\n${clipInput(s)}`;
      return;
    }
    const turn: Turn = { role: 'event', at: null, text: this.state.keepMessages ? `summary: ${clipInput(s)}` : 'summary' };
    this.push(turn);
    this.lastSummary = turn;
  }

  /** Takes an unlaunched inline sidechain's turns, tokens and models in as this agent's own, in line order. */
  absorb(other: Transcript): void {
    const turns: Turn[] = [];
    const seqs: number[] = [];
    let i = 0;
    let j = 0;
    while (i < this.turns.length || j < other.turns.length) {
      const mine = i < this.turns.length && (j >= other.turns.length || (this.turnSeqs[i] as number) <= (other.turnSeqs[j] as number));
      if (mine) {
        turns.push(this.turns[i] as Turn);
        seqs.push(this.turnSeqs[i++] as number);
      } else {
        turns.push(other.turns[j] as Turn);
        seqs.push(other.turnSeqs[j++] as number);
      }
    }
    this.turns.length = 0;
    this.turnSeqs.length = 0;
    for (const t of turns) this.turns.push(t);
    for (const q of seqs) this.turnSeqs.push(q);
    this.usage.absorb(other.usage);
    for (const m of other.models) noteModel(this.models, m);
    noteTime(this.span, other.span.started_at ?? undefined);
    noteTime(this.span, other.span.ended_at ?? undefined);
  }

  /** Clips what was joined across lines, once the stream is over. */
  finish(): void {
    if (!this.state.keepMessages) return;
    for (const turn of this.turns) {
      if (turn.role === 'assistant' && turn.text !== '') turn.text = clipMessage(turn.text.trim());
    }
  }

  /** The agent's last words: its last assistant text (a launching call's output). */
  lastWords(): string | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const t = this.turns[i] as Turn;
      if (t.role === 'assistant' && t.text !== '') return t.text;
    }
    return undefined;
  }
}
