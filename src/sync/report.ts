// What `agentlog sync --json` prints (seed 003 "Use it"): one object with the run's counts and one
// entry per session. `file` is the local path of the log: printed, never sent.
import type { Detail, Totals } from '../record/types.js';

export const sessionStatuses = ['uploaded', 'unchanged', 'skipped', 'would_upload', 'failed'] as const;
export type SessionStatus = (typeof sessionStatuses)[number];

export const noteStatuses = ['written', 'unchanged', 'failed', 'would_write'] as const;
export type NoteStatus = (typeof noteStatuses)[number];

export interface NoteReport {
  slug: string;
  project: string | null;
  status: NoteStatus;
  id?: string;
  url?: string;
  error?: string;
}

export interface SessionReport {
  agent: string;
  session_id: string;
  /** Home-elided; as sent for a session that is sent, as recorded (elided) for one left out. */
  repo: string | null;
  models: string[];
  turns: number;
  tool_calls: number;
  totals: Totals | null;
  truncated: boolean;
  detail: Detail | null;
  status: SessionStatus;
  branch: string | null;
  started_at: string | null;
  ended_at: string | null;
  file: string;
  /** Why a session was skipped or failed. */
  reason?: string;
  /** The ledger id, once uploaded or found unchanged. */
  id?: string;
  /** Null for a session that recorded no repository; absent for one not opted in. */
  note?: NoteReport | null;
}

export interface SyncReport {
  scanned: number;
  uploaded: number;
  unchanged: number;
  skipped: number;
  unreadable: number;
  unparsed: number;
  redacted: number;
  dry_run: boolean;
  notes: Record<NoteStatus, number>;
  sessions: SessionReport[];
}

export function emptyReport(dryRun: boolean): SyncReport {
  return {
    scanned: 0,
    uploaded: 0,
    unchanged: 0,
    skipped: 0,
    unreadable: 0,
    unparsed: 0,
    redacted: 0,
    dry_run: dryRun,
    notes: { written: 0, unchanged: 0, failed: 0, would_write: 0 },
    sessions: [],
  };
}
