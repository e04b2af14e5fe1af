// The turns as they are built, each message turn keyed by its seq and every other turn anchored
// to the seq of the message before it, so a rewind can cut everything said after a seq and an
// epoch marker can give legacy messages the seqs they were renumbered to (research §1.5).
import { clipMessage } from '../../record/clip.js';
import type { ToolCall, Turn } from '../../record/types.js';
import { hash16 } from '../../fs/hash.js';
import type { MessageEntry, MessageLocator } from './messages.js';
import { isoOf } from './row-time.js';
import type { DraftCall } from './tool-calls.js';

export interface DraftTurn {
  turn: Turn;
  /** For message turns: the message (its `cutKey` decides rewinds). */
  message?: MessageEntry;
  /** For other turns: the seq of the last message before them, which a rewind compares. */
  anchor?: number;
  legacy: boolean;
  calls?: DraftCall[];
  /** The row's `turn` number, so a runtime batch joins the response of its own turn. */
  turnNo?: number;
}

export interface MessageFacts {
  legacy: boolean;
  locator: MessageLocator | undefined;
  seq?: number | undefined;
  cutKey?: number | undefined;
}

/** Where a turn came from: its time, its row's turn number, whether it is legacy. */
export interface TurnOrigin {
  ms: number | undefined;
  turnNo: number | undefined;
  legacy: boolean;
}

export class TurnList {
  private turns: DraftTurn[] = [];
  readonly messages: MessageEntry[] = [];
  private anchor: number | undefined;
  private lastAssistant: DraftTurn | undefined;
  /** The model assistant turns are tagged with (the latest `Model:` row or row model). */
  model: string | undefined;

  private push(t: DraftTurn): DraftTurn {
    this.turns.push(t);
    return t;
  }

  user(text: string, ms: number | undefined, m: MessageFacts & { locator: MessageLocator }): void {
    const clipped = clipMessage(text);
    const entry: MessageEntry = {
      role: 'user',
      text: clipped,
      tsMs: ms,
      seq: m.seq,
      cutKey: m.cutKey,
      // Only the epoch marker's correlation reads a hash, and it matches legacy messages only:
      // a lane message's hash would be a SHA-256 per message for nothing.
      hash: m.legacy ? hash16(text) : undefined,
      legacy: m.legacy,
      locator: m.locator,
      superseded: false,
    };
    this.messages.push(entry);
    this.push({ turn: { role: 'user', at: isoOf(ms), text: clipped }, message: entry, legacy: m.legacy });
    if (m.seq !== undefined) this.anchor = m.seq;
    this.lastAssistant = undefined;
  }

  /** An assistant message; `hash` only when the whole text was read. */
  assistant(text: string, hash: string | undefined, o: TurnOrigin, m: MessageFacts): void {
    const entry: MessageEntry = {
      role: 'assistant',
      text,
      tsMs: o.ms,
      seq: m.seq,
      cutKey: m.cutKey,
      hash,
      legacy: m.legacy,
      locator: m.locator,
      superseded: false,
    };
    this.messages.push(entry);
    const turn: Turn = { role: 'assistant', at: isoOf(o.ms), text, tool_calls: [] };
    if (this.model !== undefined) turn.model = this.model;
    this.lastAssistant = this.push({ turn, message: entry, legacy: m.legacy, calls: [], turnNo: o.turnNo });
    if (m.seq !== undefined) this.anchor = m.seq;
  }

  /** A reasoning or event turn, anchored to the message before it. */
  other(role: 'reasoning' | 'event', text: string, o: TurnOrigin, anchor = this.anchor): void {
    this.push({ turn: { role, at: isoOf(o.ms), text }, anchor, legacy: o.legacy, turnNo: o.turnNo });
  }

  /** The calls of the response a runtime batch belongs to: the open assistant turn of the same turn, else a new one. */
  callsFor(o: TurnOrigin): DraftCall[] {
    const last = this.lastAssistant;
    if (last?.calls !== undefined && (o.turnNo === undefined || last.turnNo === undefined || o.turnNo === last.turnNo)) return last.calls;
    const turn: Turn = { role: 'assistant', at: isoOf(o.ms), text: '', tool_calls: [] };
    if (this.model !== undefined) turn.model = this.model;
    const calls: DraftCall[] = [];
    this.lastAssistant = this.push({ turn, anchor: this.anchor, legacy: o.legacy, calls, turnNo: o.turnNo });
    return calls;
  }

  /** The latest call (not yet launching anything) that `match` picks. */
  findCall(match: (c: DraftCall) => boolean): ToolCall | undefined {
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const calls = this.turns[i]?.calls ?? [];
      for (let j = calls.length - 1; j >= 0; j--) {
        const c = calls[j] as DraftCall;
        if (c.call.subagent === undefined && match(c)) return c.call;
      }
    }
    return undefined;
  }

  /** Cuts every turn after seq `cut`; the cut messages stay listed, superseded. Returns the cut calls. */
  rewind(cut: number): Set<DraftCall> {
    const gone = new Set<DraftCall>();
    // Kept turns move up in place: a session rewinds tens of times, and a new list of every turn
    // each time was ~0.8 of the ~79 MB a cold scan of the bench home allocates (sampled).
    const turns = this.turns;
    let kept = 0;
    for (const t of turns) {
      const key = t.message !== undefined ? t.message.cutKey : t.anchor;
      if (key === undefined || key <= cut) {
        turns[kept++] = t;
        continue;
      }
      if (t.message !== undefined) t.message.superseded = true;
      for (const c of t.calls ?? []) gone.add(c);
      if (t === this.lastAssistant) this.lastAssistant = undefined;
    }
    turns.length = kept;
    this.anchor = cut;
    return gone;
  }

  /** The epoch marker gives legacy messages their seqs: greedy, in order, by role and content hash. */
  correlate(mapping: readonly unknown[]): void {
    let top = this.anchor;
    for (const entry of mapping) {
      if (!Array.isArray(entry)) continue;
      const [seq, role, hash] = entry as unknown[];
      if (typeof seq !== 'number' || typeof hash !== 'string') continue;
      top = top === undefined ? seq : Math.max(top, seq);
      if (role !== 'user' && role !== 'assistant') continue;
      const match = this.messages.find((m) => m.legacy && m.seq === undefined && m.role === role && m.hash === hash);
      if (match !== undefined) {
        match.seq = seq;
        match.cutKey = seq;
      }
    }
    // Legacy tool calls, reasoning and events follow the message they came after.
    let last: number | undefined;
    for (const t of this.turns) {
      if (t.message !== undefined) last = t.message.cutKey ?? last;
      else if (t.legacy) t.anchor = last;
    }
    this.anchor = top;
  }

  /** Puts a message first (a legacy session's task, known only from its meta). */
  prependUser(text: string, ms: number | undefined, locator: MessageLocator): void {
    const clipped = clipMessage(text);
    const entry: MessageEntry = {
      role: 'user',
      text: clipped,
      tsMs: ms,
      seq: undefined,
      cutKey: undefined,
      hash: hash16(text),
      legacy: true,
      locator,
      superseded: false,
    };
    this.messages.unshift(entry);
    this.turns.unshift({ turn: { role: 'user', at: isoOf(ms), text: clipped }, message: entry, legacy: true });
  }

  /** The record's turns, each assistant turn carrying its calls. */
  finish(): Turn[] {
    return this.turns.map((t) => {
      if (t.calls !== undefined) t.turn.tool_calls = t.calls.map((c) => c.call);
      return t.turn;
    });
  }
}

/** A subagent's last words: the text of its last assistant turn that said something. */
export function lastWords(turns: readonly Turn[]): string | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i];
    if (t?.role === 'assistant' && t.text !== '') return t.text;
  }
  return undefined;
}
