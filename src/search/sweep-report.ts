// What one indexing sweep did, as `agentlog index --json` prints it: counts per outcome, what failed,
// and the problems met on the way (unreadable homes and files, bad lines).
import { defaultWindowDays } from './manifest.js';

export interface SweepReport {
  snapshot: string;
  window_days: number;
  /** Sessions discovered by agents that extract messages. */
  sessions: number;
  unchanged: number;
  /** Sessions read on from where the last sweep stopped (appends). */
  resumed: number;
  /** Sessions read whole (new, rewritten, moved, rebuilt). */
  extracted: number;
  /** Sessions that said nothing indexable yet (remembered by cursor, not re-read). */
  empty: number;
  outside_window: number;
  tombstoned: number;
  /** Sessions whose files are gone (their shards keep serving until the window expires them). */
  gone: number;
  /** Sessions dropped by retention. */
  expired: number;
  failed: { session: string; reason: string }[];
  /** What could not be read on the way: agent homes, files, lines (the sweep goes on past each). */
  problems: { path: string; reason: string }[];
  bad_lines: number;
  bytes_read: number;
  manifest_writes: number;
  rejected_stale: number;
  quarantined_manifest: string | null;
  garbage_removed: number;
  stopped: boolean;
  /** Answered from the unchanged-sweep memo (sweep-memo.ts): nothing changed, the manifest was not read. */
  memo: boolean;
  duration_ms: number;
}

export function emptyReport(): SweepReport {
  return {
    snapshot: '',
    window_days: defaultWindowDays,
    sessions: 0,
    unchanged: 0,
    resumed: 0,
    extracted: 0,
    empty: 0,
    outside_window: 0,
    tombstoned: 0,
    gone: 0,
    expired: 0,
    failed: [],
    problems: [],
    bad_lines: 0,
    bytes_read: 0,
    manifest_writes: 0,
    rejected_stale: 0,
    quarantined_manifest: null,
    garbage_removed: 0,
    stopped: false,
    memo: false,
    duration_ms: 0,
  };
}
