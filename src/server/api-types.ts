// The wire shapes of every `agentlog serve` route (issue 11), for the server and the dashboard alike.
// Type-only imports: the dashboard bundle can import this file without pulling in Node code.
import type { Entry } from '../custody/entry.js';
import type { RecordRoot } from '../custody/locate.js';
import type { AgentId, SessionRecord, Totals, Turn } from '../record/types.js';
import type { SearchBody } from '../search/response.js';
import type { Locator } from '../record/message-index.js';

export type { SearchBody, SearchHit, SessionGroup, Coverage } from '../search/response.js';
export type { Entry, Locator, SessionRecord, Totals, Turn, AgentId, RecordRoot };

/** Every error answer: the HTTP status says the class, `code` the case (e.g. `busy`, `SessionNotFound`). */
export interface ErrorBody {
  ok: false;
  error: { code: string; message: string };
}

/** What one keep + index sweep of the serve process did. */
export interface SweepSummary {
  /** When it finished (epoch ms) and how long it took. */
  at_ms: number;
  duration_ms: number;
  /** What started it. */
  trigger: 'start' | 'change' | 'interval';
  keep: { sessions: number; copied: number; extended: number; refreshed: number; failed: number } | null;
  index: { sessions: number; extracted: number; resumed: number; unchanged: number; failed: number } | null;
  /** Problems the sweep met (paths relative to nothing a client can open: messages only). */
  problems: string[];
}

/** GET /api/health */
export interface HealthBody {
  ok: true;
  version: string;
  started_at_ms: number;
  /** `empty`: no index yet; `building`: the first sweep runs; `ready`: searchable. */
  store: { state: 'empty' | 'building' | 'ready'; revision: number; window_days: number | null };
  /** How file changes are noticed: events (a watcher) or the interval alone. */
  watching: 'events' | 'interval' | 'off';
  sweeping: boolean;
  last_sweep: SweepSummary | null;
  indexed: { sessions: number; messages: number };
}

/** One session in the list (GET /api/sessions). */
export interface SessionSummary {
  agent: AgentId;
  session_id: string;
  name: string | null;
  repo: string;
  branch: string | null;
  /** The first thing the person asked, from the message index (null when not indexed). */
  first_ask: string | null;
  started_at: string | null;
  ended_at: string | null;
  turns: number;
  tool_calls: number;
  totals: Totals;
  subagents: number;
  /** `vendor`: read from the agent's own files; `kept`: only the kept copy is left. */
  root: RecordRoot;
  /** The transcript changed within the last minutes (a session still being written). */
  growing: boolean;
}

/** GET /api/sessions?agent=&repo=&q=&limit=&cursor= (newest first). */
export interface SessionsBody {
  ok: true;
  sessions: SessionSummary[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  cursor: string | null;
  /**
   * False while the server's first scan of the homes is under way and the rows are those its last
   * saved scan listed (sessions since may be missing, gone ones still there): ask again shortly.
   */
  complete: boolean;
}

/** A transcript entry in a detail page: custody's entry plus its position in the whole transcript. */
export interface DetailEntry extends Entry {
  /** 0-based position among the transcript's entries (what `before` and `total_index` count). */
  index: number;
}

export const anchorKinds = ['exact', 'nearest'] as const;
export type Anchor = (typeof anchorKinds)[number];

/** How a `locate=` locator resolved (the page is served in every case). */
export type LocateResult =
  | { state: 'resolved'; entry_index: number; total_index: number; anchor: Anchor }
  | { state: 'stale'; reason: string }
  | { state: 'unavailable'; reason: string };

/** GET /api/session/{agent}/{id}?limit=&before=&thread=&locate= */
export interface SessionDetailBody {
  ok: true;
  agent: AgentId;
  session_id: string;
  root: RecordRoot;
  /** The transcript paged: null for the main one, else a subagent's file (relative to the agent home). */
  thread: string | null;
  /** The session's other transcripts (subagents), each usable as `thread=`. */
  threads: string[];
  /** In order, oldest first. */
  entries: DetailEntry[];
  /** Entries in the whole transcript. */
  total: number;
  /** The page is entries [page_start, page_end) of the transcript. */
  page_start: number;
  page_end: number;
  has_older: boolean;
  growing: boolean;
  /** Present when `locate=` was given. */
  locate?: LocateResult;
}

/**
 * GET /api/session/{agent}/{id}/turns?limit=&before=&from=&around=&match=: a window of the record's
 * turns (full detail), newest window by default; `match` ({role, ts_ms, text} of a search hit)
 * centres the window on that turn.
 */
export interface TurnsBody {
  ok: true;
  /** The record's header: everything but its turns (`turns` is empty here). */
  record: SessionRecord;
  /** Turns in the whole record. */
  total: number;
  /** The window is turns [start, end) of the record. */
  start: number;
  end: number;
  turns: Turn[];
  /** With `match`: the matching turn as [top, call, turn, call, turn, …], or null when none matched. */
  focus: number[] | null;
  /**
   * The newest turns of a big session from a tail read: `total`, `start` and `end` count within that
   * read only, and the header's totals cover the tail. Ask `before_end=<turns held>` for the page above.
   */
  partial: boolean;
  /**
   * The byte just past the main transcript's last complete line when this answer was read: the
   * events stream's `last_event_id` for following what comes after (null: follow from the start).
   */
  follow_from: number | null;
}

/** GET /api/session/{agent}/{id}/record?detail=full|messages|summary: exactly what `show --json` prints. */
export type RecordBody = SessionRecord;

/**
 * GET /api/session/{agent}/{id}/events (Server-Sent Events). The `id:` of every `entry` event is the
 * byte offset just past its line: send it back as `Last-Event-ID` to resume with no gap or repeat.
 */
export interface EventStreamTypes {
  replay_start: { agent: AgentId; session_id: string; root: RecordRoot; from_offset: number; size: number };
  entry: Entry;
  /** Everything written before the stream opened has been sent; what follows is live. */
  replay_end: { entries: number; offset: number };
  /** The transcript was truncated, replaced or moved to the kept copy: entries restart from the new file. */
  restart: { reason: string; offset: number };
  error: { code: string; message: string };
}
export type EventType = keyof EventStreamTypes;

/** GET /api/sessions/message-search: exactly what `agentlog search --json` prints. */
export type MessageSearchBody = SearchBody;

/** GET /api/sessions/deep-search?q=: NDJSON, one `hit` per line, then one `summary`. */
export interface DeepSearchHit {
  type: 'hit';
  agent: AgentId;
  session_id: string;
  /** The transcript, relative to its agent home. */
  file: string;
  /** Byte offset of the line in that file, and its 1-based number. */
  offset: number;
  line: number;
  snippet: string;
  /** [start, end) UTF-16 offsets of the terms within `snippet`. */
  ranges: [number, number][];
}
export interface DeepSearchSummary {
  type: 'summary';
  hits: number;
  sessions_scanned: number;
  files_scanned: number;
  bytes_scanned: number;
  elapsed_ms: number;
  /** Why it ended before covering everything, or null when it did. */
  stopped: null | 'timeout' | 'hit_limit';
}
export type DeepSearchLine = DeepSearchHit | DeepSearchSummary;

/** PUT /api/session/{agent}/{id}/name with body `{name}`. */
export interface RenameBody {
  ok: true;
  agent: AgentId;
  session_id: string;
  name: string;
  stored_in: 'meta' | 'overlay';
}

/**
 * GET /api/usage?days=30[&tz=Area/City]: per local day (the server's zone unless `tz` names one) and
 * agent, each request's tokens on the day it was made; the numbers of `agentlog usage daily --by-agent`.
 */
export interface UsageRow {
  day: string;
  agent: AgentId;
  /** Sessions with tokens on this day. */
  sessions: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  reasoning_tokens: number;
  /** Input, output, cache write and cache read (reasoning is inside output or apart, as ccusage counts). */
  total_tokens: number;
  /** Estimated (or logged) cost in USD over the priced models. */
  cost_usd: number;
  /** Models the price table does not know, left out of `cost_usd`. */
  unpriced_models: string[];
}
export interface UsageBody {
  ok: true;
  days: number;
  /** The IANA zone whose days these are. */
  time_zone: string;
  /** First and last local day covered (YYYY-MM-DD). */
  from: string;
  to: string;
  rows: UsageRow[];
}

/** The `locate=` parameter is a locator exactly as `search --json` prints it. */
export type LocateParam = Locator;
