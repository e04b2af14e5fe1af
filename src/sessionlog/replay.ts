// `replay(dir)`: the inverse of the writers. Streams `session.jsonl` once and turns each row a
// dashboard renders into a UI event (bookkeeping rows give none), reading sidecar spans for the
// full text; the stream opens with `replay_start` (research §1.8).
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { forEachLine } from '../fs/read-lines.js';
import { isNotFound } from '../fs/errors.js';
import { arr, asObject, bool, num, obj, parseObjectLine, str } from '../json/narrow.js';
import { SessionLogError } from './errors.js';
import type { LineProblem } from './line-problem.js';
import { toLogEvent, type LogEvent } from './log-event.js';
import type { Attachment, Tokens } from './message-lane.js';
import { readMeta } from './meta.js';
import { files } from './paths.js';
import type { ReplayBase, ReplayEvent } from './replay-event.js';
import { isContainedPath, readSpan, readWholeIfSize, type SpanText } from './sidecar.js';

/** Replayed content is capped per event (the wire cap of one UI entry). */
export const replayTextCap = 256 * 1024;

export interface Replay {
  events: ReplayEvent[];
  /** Lines that were not log rows (a torn final line is not one: see `tornTail`). */
  problems: LineProblem[];
  /** The last line had no newline and did not parse: a writer was cut off mid-line. */
  tornTail: boolean;
}

function base(e: LogEvent): ReplayBase {
  return { ts: e.ts, ts_ms: e.ts_ms ?? null, turn: e.turn ?? null };
}

/** Text of a span named by `file` + `<prefix>_offset`/`<prefix>_bytes`, else a whole legacy file whose size is `lengthKey`. */
function spanText(dir: string, file: string | undefined, data: LogEvent['data'], prefix: string, lengthKey: string): SpanText | undefined {
  if (file === undefined) return undefined;
  const offset = num(data, `${prefix}_offset`);
  const bytes = num(data, `${prefix}_bytes`);
  if (offset !== undefined && bytes !== undefined) return readSpan(dir, file, offset, bytes, replayTextCap);
  const length = num(data, lengthKey);
  return length === undefined ? undefined : readWholeIfSize(dir, file, length, replayTextCap);
}

function tokensOf(data: LogEvent['data']): Tokens | null {
  const t = obj(data, 'tokens');
  if (t === undefined) return null;
  return {
    prompt: num(t, 'prompt') ?? 0,
    completion: num(t, 'completion') ?? 0,
    total: num(t, 'total') ?? 0,
    cached: num(t, 'cached') ?? 0,
    cache_creation: num(t, 'cache_creation') ?? 0,
  };
}

function attachmentsOf(data: LogEvent['data']): Attachment[] {
  return (arr(data, 'attachments') ?? []).flatMap((a) => {
    const o = asObject(a);
    const upload_id = str(o, 'upload_id');
    const name = str(o, 'name');
    const mime = str(o, 'mime');
    const url = str(o, 'url');
    return upload_id !== undefined && name !== undefined && mime !== undefined && url !== undefined ? [{ upload_id, name, mime, url }] : [];
  });
}

function logSource(message: string): 'user' | 'server' | 'system' {
  if (message.startsWith('[user] ')) return 'user';
  if (/^(\[presence\]|\[model\]|Presence|\[ws\])/.test(message)) return 'server';
  return 'system';
}

/** One row → its UI event, or undefined for rows a dashboard does not render. */
export function replayRow(dir: string, e: LogEvent): ReplayEvent | undefined {
  const b = base(e);
  const d = e.data;
  switch (e.event) {
    case 'turn_start':
      return { ...b, kind: 'turn_start', budget_pct: num(d, 'budget_pct') ?? null, remaining_tokens: num(d, 'remaining_tokens') ?? null };
    case 'model_response': {
      const span = spanText(dir, e.file, d, 'model', 'content_length');
      return {
        ...b,
        kind: 'model_response',
        content: span?.text ?? e.message ?? '',
        clipped: span?.clipped ?? false,
        tokens: tokensOf(d),
        model: str(d, 'model') ?? null,
        source: str(d, 'source') ?? null,
        session_id: str(d, 'session_id') ?? null,
      };
    }
    case 'conversation_message': {
      // The assistant row's diagnostic twin (`model_response`) renders; this library writes no
      // `[user]` twin for user rows, so the canonical user row renders itself.
      if (str(d, 'role') !== 'user') return undefined;
      return {
        ...b,
        kind: 'user_message',
        text: str(d, 'text') ?? e.message ?? '',
        provenance: str(d, 'provenance') ?? null,
        seq: num(d, 'message_seq') ?? null,
        ref_seq: num(d, 'ref_seq') ?? null,
        attachments: attachmentsOf(d),
      };
    }
    case 'reasoning': {
      const full = spanText(dir, e.file, d, 'reasoning', 'full_content_length');
      const content = full?.text ?? e.message ?? '';
      if (content === '') return undefined;
      return { ...b, kind: 'reasoning', content, summary: e.message ?? null };
    }
    case 'agent_input':
      return { ...b, kind: 'agent_input', functions: (arr(d, 'functions') ?? []).filter((f): f is string => typeof f === 'string') };
    case 'agent_output': {
      const out = spanText(dir, e.file, d, 'stdout', 'stdout_length');
      const err = spanText(dir, e.file2, d, 'stderr', 'stderr_length');
      const stdout = out?.text ?? (e.message === '(no output)' ? '' : (e.message ?? ''));
      return {
        ...b,
        kind: 'agent_output',
        stdout,
        stderr: err?.text ?? '',
        clipped: (out?.clipped ?? false) || (err?.clipped ?? false),
        output_id: str(d, 'output_id') ?? null,
        source: str(d, 'source') ?? null,
        session_id: str(d, 'session_id') ?? null,
      };
    }
    case 'approval':
      return {
        ...b,
        kind: 'approval',
        category: str(d, 'category') ?? null,
        decision: str(d, 'decision') ?? '',
        preview: str(d, 'preview') ?? e.message ?? '',
      };
    case 'auto_approved':
      return { ...b, kind: 'approval', category: null, decision: 'auto_approved', preview: e.message ?? '' };
    case 'info':
    case 'warn':
    case 'error':
    case 'debug': {
      const message = e.message ?? '';
      const attached = /^Session attached: (\S+) \((.+)\)$/.exec(message);
      if (attached !== null) return { ...b, kind: 'session_attached', session_id: attached[1] as string, source: attached[2] as string };
      const level = /^\[model\] (Thinking|Tool call:)/.test(message) ? 'detail' : (e.level ?? e.event);
      return { ...b, kind: 'log', level, source: logSource(message), message };
    }
    case 'conversation_rewound':
      return {
        ...b,
        kind: 'conversation_rewound',
        cut_after_seq: num(d, 'cut_after_seq') ?? 0,
        rewind_kind: str(d, 'kind') ?? '',
        superseded_at_ms: num(d, 'superseded_at_ms') ?? e.ts_ms ?? null,
      };
    case 'context_snapshot': {
      const file = e.file ?? null;
      const available = file !== null && isContainedPath(file) && existsSync(join(dir, file));
      return {
        ...b,
        kind: 'context_snapshot',
        source: str(d, 'source') ?? '',
        label: str(d, 'label') ?? '',
        format: str(d, 'format') ?? null,
        file,
        exact_replay_available: available,
        token_count: num(d, 'token_count') ?? null,
        item_count: num(d, 'item_count') ?? null,
        session_id: str(d, 'session_id') ?? null,
      };
    }
    case 'session_identity':
      return {
        ...b,
        kind: 'session_identity',
        session_id: str(d, 'session_id') ?? '',
        source: str(d, 'source') ?? '',
        backend_session_id: str(d, 'backend_session_id') ?? '',
      };
    case 'session_relationship':
      return {
        ...b,
        kind: 'session_relationship',
        parent_session_id: str(d, 'parent_session_id') ?? '',
        child_session_id: str(d, 'child_session_id') ?? '',
        relationship: str(d, 'relationship') ?? '',
        ephemeral: bool(d, 'ephemeral') ?? false,
      };
    case 'session_attached':
      return { ...b, kind: 'session_attached', session_id: str(d, 'session_id') ?? '', source: str(d, 'source') ?? '' };
    case 'round_complete':
      return { ...b, kind: 'round_complete', round: num(d, 'round') ?? 0, turns_in_round: num(d, 'turns_in_round') ?? null };
    case 'session_end':
      return {
        ...b,
        kind: 'session_end',
        outcome: str(d, 'outcome') ?? /^Session ended: (.*) \(\d+ turns\)$/.exec(e.message ?? '')?.[1] ?? '',
        total_turns: num(d, 'total_turns') ?? null,
      };
    default:
      return undefined;
  }
}

/** The first `Provider:`/`Model:`/`Autonomy:` values the log states (plain rows written at start). */
function noteStatus(e: LogEvent, status: { provider: string | null; model: string | null; autonomy: string | null }): void {
  if (!['info', 'debug', 'warn', 'error'].includes(e.event) || e.message === undefined) return;
  const m = e.message;
  if (status.provider === null && m.startsWith('Provider: ')) status.provider = m.slice(10).trim().split(/\s+/)[0] ?? '';
  else if (status.model === null && m.startsWith('Model: ')) status.model = m.slice(7);
  else if (status.autonomy === null && m.startsWith('Autonomy: ')) status.autonomy = m.slice(10).trim().split(/\s+/)[0] ?? '';
}

/** Replays the session in `dir` into UI events, `replay_start` first. */
export async function replay(dir: string): Promise<Replay> {
  const events: ReplayEvent[] = [];
  const problems: LineProblem[] = [];
  const path = join(dir, files.events);
  const status = { provider: null as string | null, model: null as string | null, autonomy: null as string | null };
  let first: LogEvent | undefined;
  let tornTail = false;
  let line = 0;
  try {
    await forEachLine(path, (text, info) => {
      line++;
      if (text.trim() === '') return;
      const o = parseObjectLine(text);
      const e = o === undefined ? undefined : toLogEvent(o);
      if (e === undefined) {
        if (!info.complete) tornTail = true;
        else problems.push({ file: path, line, reason: o === undefined ? 'not a JSON object' : 'no "event" field' });
        return;
      }
      first ??= e;
      noteStatus(e, status);
      const ev = replayRow(dir, e);
      if (ev !== undefined) events.push(ev);
    });
  } catch (error) {
    if (isNotFound(error))
      throw new SessionLogError('SessionNotFound', `${dir} holds no ${files.events}; is it a session folder?`, { cause: error });
    throw error;
  }
  let sessionId = basename(dir);
  try {
    sessionId = (await readMeta(dir))?.session_id ?? sessionId;
  } catch {
    // A corrupt meta does not stop a replay; `findSession`/`listSessions` report it.
  }
  const start: ReplayEvent = {
    ts: first?.ts ?? '',
    ts_ms: first?.ts_ms ?? null,
    turn: null,
    kind: 'replay_start',
    session_id: sessionId,
    ...status,
  };
  return { events: [start, ...events], problems, tornTail };
}
