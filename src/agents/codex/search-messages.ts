// Codex's messages for the search index (seed 000 "The extractors", research intendant §3.2): what
// the person typed and the assistant's prose, from the session's rollout and its spawned agents'
// rollouts, read incrementally. Rollbacks (`thread_rolled_back`) become supersession marks.
// Never indexed: developer/harness messages, injected machinery, reasoning, tool calls and output,
// compaction summaries.
//
// Codex writes what the person typed twice: as a `response_item` user message and as an
// `event_msg` user_message. Where the event lane exists it is canonical and the item twins (and the
// machinery that rides the item lane alone) are dropped; rollouts written by harnesses have no event
// lane, and there the item lane is what was typed. Which one a rollout has is known only once its
// first twin shows, so item-lane users wait in the carry until the model answers or a twin appears.
import { relative } from 'node:path';
import { forEachWantedLine } from '../../fs/read-raw-lines.js';
import { isNotFound } from '../../fs/errors.js';
import { asArray, isObject, num, obj, parseObjectLine, str, text, type JsonObject } from '../../json/narrow.js';
import {
  capText,
  contentHash16,
  type JsonValue,
  type Locator,
  type MessageExtract,
  type MessageRecord,
  type MessageResume,
  type SupersessionMark,
} from '../../record/message-index.js';
import type { DiscoveredSession, MessageExtractor } from '../types.js';
import { codexLine } from './codex-line.js';
import { maxRolloutLineBytes } from './read-rollout.js';
import { readMeta } from './rollout-meta.js';
import { contentText } from './tool-calls.js';
import { userTextOfEvent, userTextOfMessage } from './user-text.js';

/** Bump when what this file extracts changes: the index then re-reads every Codex session. */
export const codexMessagesVersion = 2;

/**
 * How many recent item ids a thread remembers for resolving rollback anchors (a rollback names a
 * recent item; the carry is stored in the index manifest, so it stays small).
 */
const recentItems = 96;

/** An item-lane user message waiting to learn whether an event twin makes it redundant. */
interface PendingUser {
  text: string;
  ts: number;
  offset: number;
  hash: string;
}

/** What one rollout (thread) carries from one sweep to the next. */
interface ThreadCarry {
  /** The 2025 envelope-less layout (null until the first line is read). */
  bare: boolean | null;
  meta: boolean;
  historyStart: number | null;
  agentPath: string | null;
  /** The rollout has an event lane for user messages. */
  eventUsers: boolean;
  /** The user-turn ordinal, aligned with Codex's own `num_turns`. */
  turn: number;
  /** The last timestamp read (lines without one inherit it). */
  ts: number;
  /** Records emitted so far in this thread (a mark's `upto`). */
  count: number;
  pending: PendingUser[];
  /** Recent item ids with the thread's record count when each was seen, and whether it was a record. */
  items: [string, number, number][];
}

function newThread(): ThreadCarry {
  return {
    bare: null,
    meta: false,
    historyStart: null,
    agentPath: null,
    eventUsers: false,
    turn: 0,
    ts: 0,
    count: 0,
    pending: [],
    items: [],
  };
}

/** Narrows a stored carry; undefined when it is not one this version wrote (then extraction starts over). */
function readCarry(v: JsonValue): Record<string, ThreadCarry> | undefined {
  if (!isObject(v) || v.v !== codexMessagesVersion || !isObject(v.threads)) return undefined;
  const out: Record<string, ThreadCarry> = {};
  for (const [k, t] of Object.entries(v.threads)) {
    if (!isObject(t) || typeof t.turn !== 'number' || typeof t.count !== 'number' || !Array.isArray(t.pending) || !Array.isArray(t.items))
      return undefined;
    out[k] = t as unknown as ThreadCarry;
  }
  return out;
}

function outputText(content: unknown): string {
  const parts = asArray(content) ?? (typeof content === 'string' ? [content] : []);
  const texts: string[] = [];
  for (const p of parts) {
    const t = typeof p === 'string' ? p : isObject(p) && (p.type === 'output_text' || p.type === 'text') ? str(p, 'text') : undefined;
    if (t !== undefined && t !== '') texts.push(t);
  }
  return texts.join('\n');
}

class ThreadReader {
  constructor(
    readonly c: ThreadCarry,
    private readonly thread: string | undefined,
    private readonly file: string | undefined,
    private readonly out: MessageExtract,
  ) {}

  private noteItem(id: string | undefined, isRecord: boolean, countBefore: number): void {
    if (id === undefined) return;
    this.c.items.push([id, countBefore, isRecord ? 1 : 0]);
    if (this.c.items.length > recentItems) this.c.items.splice(0, this.c.items.length - recentItems);
  }

  private emit(role: 'user' | 'assistant', body: string, ts: number, locator: Locator, itemId: string, turn: number | undefined): void {
    const capped = capText(body);
    const rec: MessageRecord = { role, ts_ms: ts, text: capped.text, locator, item_id: itemId };
    if (capped.truncated) rec.truncated = true;
    if (turn !== undefined && turn > 0) rec.user_turn = turn;
    if (this.thread !== undefined) {
      rec.thread = this.thread;
      rec.subagent = true;
    }
    this.out.records.push(rec);
    this.c.count++;
  }

  private lineLocator(offset: number, hash: string): Locator {
    return this.file === undefined
      ? { kind: 'external_line', line_offset: offset, content_hash16: hash }
      : { kind: 'external_line', line_offset: offset, content_hash16: hash, file: this.file };
  }

  private user(body: string, ts: number, offset: number, hash: string): void {
    this.c.turn++;
    if (body.trim() === '') return;
    const before = this.c.count;
    const id = `line:${offset}`;
    this.emit('user', body, ts, this.lineLocator(offset, hash), id, this.c.turn);
    this.noteItem(id, true, before);
  }

  /** The model answered: item-lane users still waiting had no event twin, so they are what was typed. */
  private flushPending(): void {
    const waiting = this.c.pending;
    this.c.pending = [];
    for (const p of waiting) this.user(p.text, p.ts, p.offset, p.hash);
  }

  line(o: JsonObject, offset: number): void {
    const line = codexLine(o, this.c.bare === true);
    if (this.c.bare === null) this.c.bare = line !== undefined && line.payload === o;
    if (line === undefined) return;
    if (line.at !== null) {
      const t = Date.parse(line.at);
      if (Number.isFinite(t)) this.c.ts = t;
    }
    if (line.type === 'session_meta') {
      if (!this.c.meta) {
        this.c.meta = true;
        const meta = readMeta(line.payload);
        this.c.historyStart = meta.historyStartOrdinal ?? null;
        this.c.agentPath = meta.agentPath ?? null;
      }
      return;
    }
    // A forked child's copy of its parent's history is the parent's, not the child's.
    if (this.c.historyStart !== null && line.ordinal !== undefined && line.ordinal < this.c.historyStart) return;
    if (line.metadata?.inherited_user_message === true) return;
    if (line.type === 'response_item') this.responseItem(line.payload, offset);
    else if (line.type === 'event_msg') this.event(line.payload, offset);
  }

  private responseItem(p: JsonObject, offset: number): void {
    const ts = this.c.ts;
    if (p.type === 'message') {
      if (p.role === 'user') {
        if (this.c.eventUsers) return;
        const typed = userTextOfMessage(p);
        if (typed.aborted && typed.text === '') return;
        this.c.pending.push({ text: typed.text, ts, offset, hash: contentHash16(typed.text) });
        return;
      }
      if (p.role !== 'assistant') return;
      this.flushPending();
      const id = text(p, 'id')?.trim();
      const body = outputText(p.content);
      const before = this.c.count;
      if (body.trim() !== '') {
        const itemId = id ?? `line:${offset}`;
        const locator: Locator =
          id !== undefined
            ? this.file === undefined
              ? { kind: 'external_record_id', record_id: id }
              : { kind: 'external_record_id', record_id: id, file: this.file }
            : this.lineLocator(offset, contentHash16(body));
        this.emit('assistant', body, ts, locator, itemId, this.c.turn);
        this.noteItem(itemId, true, before);
      } else this.noteItem(id, false, before);
      return;
    }
    if (p.type === 'agent_message') {
      // Multi-agent v2: a message addressed to this thread is the task (or a follow-up) it was given.
      const own = this.c.agentPath;
      if (own !== null && p.recipient === own && p.author !== own)
        this.user((contentText(p.content) ?? '').trim(), ts, offset, contentHash16(contentText(p.content) ?? ''));
      return;
    }
    // Any other item is the model at work: no twin is coming for what waits.
    this.flushPending();
    const before = this.c.count;
    this.noteItem(text(p, 'id'), false, before);
    const callId = text(p, 'call_id');
    if (callId !== undefined && callId !== text(p, 'id')) this.noteItem(callId, false, before);
  }

  private event(p: JsonObject, offset: number): void {
    if (p.type === 'user_message') {
      // The event lane exists: item-lane twins (and item-only machinery) are dropped for good.
      this.c.eventUsers = true;
      this.c.pending = [];
      const typed = userTextOfEvent(p);
      this.user(typed.text, this.c.ts, offset, contentHash16(typed.text));
      return;
    }
    if (p.type !== 'thread_rolled_back') return;
    this.flushPending();
    const at = this.c.ts;
    const n = num(p, 'num_turns');
    const base = this.thread === undefined ? {} : { thread: this.thread };
    if (n !== undefined && n > 0)
      this.out.marks.push({ kind: 'turn_count', num_turns: Math.min(Math.trunc(n), 0xffffffff), at_ms: at, ...base, upto: this.c.count });
    const anchor = obj(p, 'anchor');
    const itemId = (text(anchor, 'itemId') ?? text(anchor, 'item_id'))?.trim();
    if (itemId === undefined) return;
    const position = str(anchor, 'position')?.toLowerCase() === 'before' ? 'before' : 'after';
    const mark: SupersessionMark = { kind: 'item_anchor', item_id: itemId, position, at_ms: at, ...base, upto: this.c.count };
    // The newest sighting of the id: an anchor names where the thread is cut now.
    const seen = [...this.c.items].reverse().find(([id]) => id === itemId);
    if (seen !== undefined) mark.from = position === 'before' ? seen[1] : seen[1] + seen[2];
    this.out.marks.push(mark);
  }
}

/** Kinds of line that never carry prose, a rollback or an item a rollback can anchor on. */
const skipped = [
  '"type":"function_call_output"',
  '"type":"custom_tool_call_output"',
  '"type":"token_count"',
  '"type":"turn_context"',
  '"type":"exec_command_end"',
  '"type":"agent_reasoning"',
  '"type":"compacted"',
].map((m) => Buffer.from(m));

/**
 * Tool output and bookkeeping make up most of a rollout's bytes; they are not decoded. The first
 * line is always read (it tells the layout). Escaped inside a string, a marker never matches.
 */
function wanted(c: ThreadCarry): (line: Buffer) => boolean {
  return (line) => c.bare === null || !skipped.some((m) => line.indexOf(m) !== -1);
}

/** The session's rollouts: its own first, then its spawned agents' (as discovery lists them). */
function rollouts(session: DiscoveredSession): string[] {
  const rest = session.files.map((f) => f.path).filter((p) => p !== session.path && p.endsWith('.jsonl'));
  return [session.path, ...rest];
}

async function extract(session: DiscoveredSession, from: MessageResume | null): Promise<MessageExtract> {
  const prior = from === null ? undefined : readCarry(from.carry);
  const resume = from !== null && prior !== undefined;
  const out: MessageExtract = {
    records: [],
    marks: [],
    marksMode: 'append',
    files: [],
    carry: null,
    fresh: !resume,
    bytesRead: 0,
    badLines: 0,
    problems: [],
  };
  const starts = new Map(resume ? from.files.map((f) => [f.path, f.offset]) : []);
  const threads: Record<string, ThreadCarry> = {};
  for (const path of rollouts(session)) {
    const rel = relative(session.home, path);
    const isMain = path === session.path;
    const carry = (resume ? prior[rel] : undefined) ?? newThread();
    const offset = resume && prior[rel] !== undefined ? (starts.get(path) ?? 0) : 0;
    const reader = new ThreadReader(carry, isMain ? undefined : rel, isMain ? undefined : rel, out);
    try {
      const r = forEachWantedLine(
        path,
        wanted(carry),
        (raw, info) => {
          if (!info.complete || raw.length === 0) return;
          const o = parseObjectLine(raw);
          if (o === undefined) {
            if (raw.trim() !== '') out.badLines++;
            return;
          }
          reader.line(o, info.offset);
        },
        { start: offset, maxLineBytes: maxRolloutLineBytes },
      );
      out.bytesRead += Math.max(0, r.size - offset);
      out.badLines += r.oversizedLines;
      out.files.push({ path, offset: r.completeEnd, mode: 'append', seen: r.size });
      threads[rel] = reader.c;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  out.carry = { v: codexMessagesVersion, threads: threads as unknown as JsonValue };
  return out;
}

export const codexMessages: MessageExtractor = { version: codexMessagesVersion, extract };
