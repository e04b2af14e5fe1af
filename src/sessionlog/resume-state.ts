// What a reopened session needs from its existing `session.jsonl`: the turn it reached, the
// highest message seq it used, the latest context-snapshot sidecar of each stream (so rotation
// continues across reopenings) and the running statistics for `session_summary.json`.
import { join } from 'node:path';
import { forEachJsonObject } from '../fs/read-jsonl.js';
import { isNotFound } from '../fs/errors.js';
import { num, obj, str } from '../json/narrow.js';
import { toLogEvent } from './log-event.js';
import { files } from './paths.js';

export interface ErrorSummary {
  category: string;
  reason: string;
  ts: string;
}

export interface SessionStats {
  modelTurns: number;
  totalTokens: number;
  errors: ErrorSummary[];
  /** Epoch ms of the first row, the session's start for `duration_secs`. */
  firstTsMs: number | undefined;
}

export interface ResumeState {
  lastTurn: number;
  maxMessageSeq: number;
  /** Stream key → the sidecar of the newest `context_snapshot` row of that stream. */
  snapshots: Map<string, string>;
  stats: SessionStats;
  rows: number;
}

/** The rotation key of a context-snapshot stream: its source and the session it mirrors. */
export function snapshotStreamKey(source: string, sessionId: string | undefined): string {
  return `${source}\u0000${sessionId ?? ''}`;
}

export function emptyStats(): SessionStats {
  return { modelTurns: 0, totalTokens: 0, errors: [], firstTsMs: undefined };
}

export async function readResumeState(dir: string): Promise<ResumeState> {
  const state: ResumeState = { lastTurn: 0, maxMessageSeq: 0, snapshots: new Map(), stats: emptyStats(), rows: 0 };
  try {
    await forEachJsonObject(join(dir, files.events), (o) => {
      const e = toLogEvent(o);
      if (e === undefined) return;
      state.rows++;
      if (state.stats.firstTsMs === undefined && e.ts_ms !== undefined) state.stats.firstTsMs = e.ts_ms;
      if (e.turn !== undefined && e.turn > state.lastTurn) state.lastTurn = e.turn;
      if (e.event === 'conversation_message') {
        const seq = num(e.data, 'message_seq') ?? 0;
        if (seq > state.maxMessageSeq) state.maxMessageSeq = seq;
      } else if (e.event === 'context_snapshot' && e.file !== undefined) {
        state.snapshots.set(snapshotStreamKey(str(e.data, 'source') ?? '', str(e.data, 'session_id')), e.file);
      } else if (e.event === 'model_response') {
        state.stats.modelTurns++;
        state.stats.totalTokens += num(obj(e.data, 'tokens'), 'total') ?? 0;
      } else if (e.event === 'error') {
        state.stats.errors.push({ category: 'error', reason: e.message ?? '', ts: e.ts });
      }
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  return state;
}
