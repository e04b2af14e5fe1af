// What a keep reports: per session, which files were copied, extended, refreshed, skipped or failed.
import { errorMessage } from '../fs/errors.js';
import type { AgentId } from '../record/types.js';
import { isCustodyError } from './errors.js';

export interface FileFailure {
  /** The relPath (or the session's path when the whole tree failed). */
  path: string;
  message: string;
  code: string | null;
}

export interface SessionKeepReport {
  agent: AgentId;
  session_id: string;
  /** `kept`: the vendor already pruned it, so there was nothing to copy (custody is one-way). */
  root: 'vendor' | 'kept';
  installation: string;
  copied: string[];
  extended: string[];
  refreshed: string[];
  skipped: string[];
  failed: FileFailure[];
}

export interface KeepTotals {
  sessions: number;
  copied: number;
  extended: number;
  refreshed: number;
  skipped: number;
  failed: number;
}

export function emptySessionReport(agent: AgentId, id: string, root: 'vendor' | 'kept', installation: string): SessionKeepReport {
  return { agent, session_id: id, root, installation, copied: [], extended: [], refreshed: [], skipped: [], failed: [] };
}

export function keepTotals(reports: readonly SessionKeepReport[]): KeepTotals {
  const t: KeepTotals = { sessions: reports.length, copied: 0, extended: 0, refreshed: 0, skipped: 0, failed: 0 };
  for (const r of reports) {
    t.copied += r.copied.length;
    t.extended += r.extended.length;
    t.refreshed += r.refreshed.length;
    t.skipped += r.skipped.length;
    t.failed += r.failed.length;
  }
  return t;
}

export function failure(path: string, error: unknown): FileFailure {
  return { path, message: errorMessage(error), code: isCustodyError(error) ? error.code : null };
}
