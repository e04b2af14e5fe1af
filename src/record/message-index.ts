// The message index's agent-neutral vocabulary (seed 000 "Records, supersession, and locators"):
// what each agent's extractor hands the search index, and how supersession is derived at read time.
import { hash16 } from '../fs/hash.js';

export const messageRoles = ['user', 'assistant'] as const;
export type MessageRole = (typeof messageRoles)[number];

/** A message's text is kept whole up to 256 KiB, else cut on a code-point boundary and flagged. */
export const messageTextCapBytes = 256 * 1024;

/**
 * Where a hit lives in its source, so a viewer can jump to it. Opaque to clients, frozen per kind:
 * resolution verifies exactly what extraction minted.
 * - `native_*`: Intendant's own session log (message id, legacy event line, model sidecar span).
 * - `external_record_id`: a vendor record id (Claude uuid, Codex response item id, Kimi
 *   `<agent>:<id>`, Pi entry id…).
 * - `external_line`: a record without an id, by the byte offset of its line and a content hash.
 * `file` names the transcript relative to the agent home when it is not the session's main file
 * (a subagent's), so the locator resolves in the vendor tree and in a kept copy alike.
 */
export type Locator =
  | { kind: 'native_message_id'; message_id: string }
  | { kind: 'native_event'; line_no: number; content_hash16: string }
  | { kind: 'native_sidecar_span'; file: string; offset: number; len: number; content_hash16: string }
  | { kind: 'external_record_id'; record_id: string; file?: string }
  | { kind: 'external_line'; line_offset: number; content_hash16: string; file?: string };

export const locatorKinds = ['native_message_id', 'native_event', 'native_sidecar_span', 'external_record_id', 'external_line'] as const;
export type LocatorKind = (typeof locatorKinds)[number];

/** One thing a person or the agent said: user or assistant prose, never tool output or reasoning. */
export interface MessageRecord {
  role: MessageRole;
  /** Epoch ms; retention and ordering key on it. */
  ts_ms: number;
  /** The original text, capped at 256 KiB. */
  text: string;
  truncated?: true;
  locator: Locator;
  /** An ordinal that never repeats within the session (Intendant `Message.seq`): `seq_cut` keys on it. */
  seq?: number;
  /** The user turn the message belongs to (Codex): `turn_count` keys on it. */
  user_turn?: number;
  /** The source's id for the message: `item_anchor` and `record_ids` key on it. */
  item_id?: string;
  /** The transcript a subagent's record came from; marks act within one thread (main when absent). */
  thread?: string;
  subagent?: true;
  /** Stamped by the index: a source rewritten in place starts a new generation (0 when absent). */
  generation?: number;
}

/**
 * Marks that make some records superseded (rewound, undone, abandoned), replayed in order over the
 * records by `deriveActive`. Records stay findable, flagged `superseded`.
 *
 * A rewind acts on what had been said when it happened, never on what is said after it: `upto` is
 * how many records of the mark's thread (in the live generation) existed when the mark was written,
 * and the mark acts only on those. Absent, it acts on every record of its thread.
 */
export type SupersessionMark =
  /** Every record with `seq` above the cut. */
  | { kind: 'seq_cut'; cut_after_seq: number; at_ms: number; thread?: string; upto?: number }
  /** The last `num_turns` user turns still active (bounded by how many exist). */
  | { kind: 'turn_count'; num_turns: number; at_ms: number; thread?: string; upto?: number }
  /**
   * Everything after (or from, with `before`) the first record with this item id. `from`, when the
   * anchor is not itself a record (a tool call), is the index in the thread where the cut starts.
   */
  | { kind: 'item_anchor'; item_id: string; position: 'before' | 'after'; at_ms: number; thread?: string; from?: number; upto?: number }
  /** Only records of this generation are live; older ones were abandoned by a rewrite. */
  | { kind: 'generation_restore'; active_generation: number; at_ms: number }
  /** Exactly these item ids (a Kimi undo, a Pi branch left behind). */
  | { kind: 'record_ids'; record_ids: string[]; at_ms: number; reason: string };

export const markKinds = ['seq_cut', 'turn_count', 'item_anchor', 'generation_restore', 'record_ids'] as const;
export type MarkKind = (typeof markKinds)[number];

const continuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** Caps `text` at `cap` UTF-8 bytes on a code-point boundary; `truncated` says whether it cut. */
export function capText(text: string, cap = messageTextCapBytes): { text: string; truncated: boolean } {
  if (text.length * 3 <= cap) return { text, truncated: false };
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= cap) return { text, truncated: false };
  let end = cap;
  while (end > 0 && continuation(buf[end])) end--;
  return { text: buf.toString('utf8', 0, end), truncated: true };
}

/** The first 16 hex digits of SHA-256 over the text's UTF-8 bytes (content fingerprints in locators). */
export const contentHash16: (text: string) => string = hash16;

/** The generation whose records are live: the last restore's, else the newest any record has. */
export function activeGeneration(records: readonly Pick<MessageRecord, 'generation'>[], marks: readonly SupersessionMark[]): number {
  let restored: number | undefined;
  for (const m of marks) if (m.kind === 'generation_restore') restored = m.active_generation;
  if (restored !== undefined) return restored;
  let max = 0;
  for (const r of records) if ((r.generation ?? 0) > max) max = r.generation ?? 0;
  return max;
}

type MarkedRecord = Pick<MessageRecord, 'seq' | 'user_turn' | 'item_id' | 'thread' | 'generation'>;

/**
 * Which records are active, derived by replaying `marks` in order over `records` in source order.
 * Never stored: a later rewrite can change it, so it is recomputed wherever it is needed.
 *
 * Marks other than `generation_restore` act only on records of the live generation (a mark read
 * from one generation never aliases onto another's ordinals or ids), the
 * thread-scoped kinds only within their thread and within their `upto`. Records of any other
 * generation are inactive: the index keeps an older generation's records only when a rewrite
 * abandoned them. Nothing is ever re-activated by a later mark.
 * Example: deriveActive([{seq:1},{seq:2},{seq:3}], [{kind:'seq_cut',cut_after_seq:2,at_ms:0}]) → [true,true,false]
 */
export function deriveActive(records: readonly MarkedRecord[], marks: readonly SupersessionMark[]): boolean[] {
  const gen = activeGeneration(records, marks);
  const active = records.map((r) => (r.generation ?? 0) === gen);
  // Each live record's index within its thread, and each thread's live records in order.
  const threads = new Map<string, number[]>();
  records.forEach((r, i) => {
    if ((r.generation ?? 0) !== gen) return;
    const key = r.thread ?? '';
    const list = threads.get(key);
    if (list === undefined) threads.set(key, [i]);
    else list.push(i);
  });
  const scope = (thread: string | undefined, upto: number | undefined): number[] => {
    const list = threads.get(thread ?? '') ?? [];
    return upto === undefined || upto >= list.length ? list : list.slice(0, Math.max(0, upto));
  };
  for (const mark of marks) {
    switch (mark.kind) {
      case 'seq_cut':
        for (const i of scope(mark.thread, mark.upto)) {
          const seq = (records[i] as MarkedRecord).seq;
          if (seq !== undefined && seq > mark.cut_after_seq) active[i] = false;
        }
        break;
      case 'turn_count': {
        if (mark.num_turns <= 0) break;
        const inScope = scope(mark.thread, mark.upto);
        const turns: number[] = [];
        const seen = new Set<number>();
        for (const i of inScope) {
          const t = (records[i] as MarkedRecord).user_turn;
          if (active[i] === true && t !== undefined && !seen.has(t)) {
            seen.add(t);
            turns.push(t);
          }
        }
        const rolled = new Set(turns.slice(Math.max(0, turns.length - mark.num_turns)));
        for (const i of inScope) {
          const t = (records[i] as MarkedRecord).user_turn;
          if (t !== undefined && rolled.has(t)) active[i] = false;
        }
        break;
      }
      case 'item_anchor': {
        const inScope = scope(mark.thread, mark.upto);
        let at: number;
        if (mark.from !== undefined) at = mark.from;
        else {
          const found = inScope.findIndex((i) => (records[i] as MarkedRecord).item_id === mark.item_id);
          if (found === -1) break;
          at = mark.position === 'before' ? found : found + 1;
        }
        for (let k = Math.max(0, at); k < inScope.length; k++) active[inScope[k] as number] = false;
        break;
      }
      case 'record_ids': {
        const ids = new Set(mark.record_ids);
        records.forEach((r, i) => {
          if ((r.generation ?? 0) === gen && r.item_id !== undefined && ids.has(r.item_id)) active[i] = false;
        });
        break;
      }
      case 'generation_restore':
        break;
    }
  }
  return active;
}

/** JSON the index stores for an extractor between sweeps (its per-session carry-over state). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const consumeModes = ['append', 'whole'] as const;
/**
 * `append`: a log only ever appended to, read incrementally from `offset` (a torn last line is left
 * for the next sweep). `whole`: a document rewritten as it changes; any change re-reads the session.
 */
export type ConsumeMode = (typeof consumeModes)[number];

/** How far an extractor read one file of a session. */
export interface ConsumedFile {
  path: string;
  /** Bytes consumed: through the last complete line (`append`) or the whole file (`whole`). */
  offset: number;
  mode: ConsumeMode;
  /** The file's length when read (past `offset` by a torn last line); bytes beyond it are new. */
  seen?: number;
}

/** Where the previous extraction of a session stopped: handed back to resume it after appends. */
export interface MessageResume {
  files: ConsumedFile[];
  carry: JsonValue;
}

export interface MessageExtract {
  /** The records read by this call, in source order (only the new ones when resuming). */
  records: MessageRecord[];
  marks: SupersessionMark[];
  /** `append`: `marks` add to the session's earlier marks; `replace`: they are the whole list now. */
  marksMode: 'append' | 'replace';
  /** Every file of the session and how far it was read, main file first. */
  files: ConsumedFile[];
  /** Per-session state the extractor needs to resume (e.g. the current user-turn ordinal). */
  carry: JsonValue;
  /** True when the call ignored `from` and read everything again (e.g. its carry was unusable). */
  fresh: boolean;
  /** Bytes read from disk, for reports and the incremental-cost tests. */
  bytesRead: number;
  badLines: number;
  problems: { path: string; reason: string }[];
  /**
   * What this session's records can never hold, as the reader words it (e.g. answers its agent never
   * wrote down before some version): a search repeats it while the session is in its window.
   */
  coverageNotes?: Record<string, string>;
}
