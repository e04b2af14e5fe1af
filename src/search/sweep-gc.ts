// The sweep's closing passes: flag the sessions whose files are gone, expire what left the window
// (entries and tombstones), and delete generation files no entry refers to any more.
import { statSync } from 'node:fs';
import { isNotFound } from '../fs/errors.js';
import type { AgentId } from '../record/types.js';
import type { ManifestEntry } from './manifest.js';
import type { ManifestWriter } from './manifest-writer.js';
import { collectGarbage, rewriteTombstones } from './store.js';
import type { SweepReport } from './sweep-report.js';

/** Orphaned generation files younger than this stay: a query may still read an older snapshot. */
export const garbageGraceMs = 10 * 60_000;

/** A file is gone when nothing is at its path (a folder on the way replaced by a file counts too). */
function isGone(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    // Any other failure (a permission, a loop) says nothing about whether the file still exists.
    return isNotFound(error);
  }
}

function allGone(entry: ManifestEntry): boolean {
  return entry.cursors.length > 0 && entry.cursors.every((c) => isGone(c.path));
}

/**
 * Sources gone: an entry of a cleanly discovered agent that no home lists and whose files are gone
 * keeps serving, flagged, until retention expires it.
 */
export function flagGone(writer: ManifestWriter, discovered: ReadonlySet<string>, clean: ReadonlySet<AgentId>, report: SweepReport): void {
  for (const [key, entry] of Object.entries(writer.manifest.sessions)) {
    if (discovered.has(key) || !clean.has(entry.agent)) continue;
    if (entry.source_gone === true) {
      report.gone++;
      continue;
    }
    if (allGone(entry)) {
      writer.put(key, { ...entry, source_gone: true });
      report.gone++;
    }
  }
}

/** Retention: an entry leaves once its newest message and its files both left the window; so do tombstones. */
export async function expire(
  root: string,
  writer: ManifestWriter,
  tombstones: Map<string, number>,
  horizon: number,
  report: SweepReport,
): Promise<void> {
  for (const [key, entry] of Object.entries(writer.manifest.sessions)) {
    if (Math.max(entry.newest_ts_ms, entry.source_mtime_ms) < horizon) {
      writer.remove(key);
      report.expired++;
    }
  }
  let tombstonesChanged = false;
  for (const [key, at] of tombstones) {
    if (at < horizon) {
      tombstones.delete(key);
      tombstonesChanged = true;
    }
  }
  if (tombstonesChanged) await rewriteTombstones(root, tombstones);
}

/** Deletes generation files no entry of the published manifest refers to (past the grace period). */
export async function collectUnreferenced(root: string, writer: ManifestWriter, nowMs: number): Promise<number> {
  const referenced = new Set<string>();
  for (const e of Object.values(writer.manifest.sessions)) for (const s of e.segments) referenced.add(s.file);
  return collectGarbage(root, referenced, nowMs, garbageGraceMs);
}
