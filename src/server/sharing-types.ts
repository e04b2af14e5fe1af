// The JSON the sharing routes answer (`sharing.ts`), shared with the dashboard.
import type { AgentId, Detail } from '../record/types.js';

/** GET /api/session/{agent}/{id}/sharing. */
export interface SharingBody {
  agent: AgentId;
  session_id: string;
  /** The session's first working directory as its header (or the scan cache) names it; null when unknown. */
  repo: string | null;
  /** Whether sync would send it: every directory it records sits inside an allowed path. */
  allowed: boolean;
  /** The level it would be sent at, when allowed. */
  detail: Detail | null;
  /** The most specific allowed path its repository sits in, allowed or not as a whole. */
  allowed_by: string | null;
  /** Why it is not sent, when it is not. */
  reason: string | null;
  /** When a sync last found it on the hub (uploaded or already there), ISO-8601; null when never. */
  last_uploaded: string | null;
  /** The hub of the last sync. */
  hub: string | null;
}

/** POST /api/sharing/allow `{path, detail?}` and /api/sharing/deny `{path}`. */
export interface SharingChangeBody {
  ok: true;
  changed: boolean;
  allowed: { path: string; detail: Detail }[];
}
