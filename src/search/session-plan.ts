// What a sweep does with one discovered session, from its stored cursors: skip it (unchanged),
// resume it after appends, or extract it again (rewritten, gone files, another extractor version,
// or a shard whose generation files went missing).
import type { DiscoveredSession } from '../agents/types.js';
import { checkCursor, unchangedPerDiscovery, type FileChange, type FileCursor } from './file-cursor.js';
import type { ManifestEntry } from './manifest.js';

export type SessionPlan =
  | { kind: 'skip' }
  | { kind: 'resume' }
  /** `retain`: keep what the prior shard said that the new extraction no longer has (superseded). */
  | { kind: 'full'; retain: boolean; why: 'new' | 'version' | 'missing-generation' | 'rewritten' | 'moved' };

export async function planSession(
  entry: ManifestEntry | undefined,
  session: DiscoveredSession,
  extractorVersion: number,
  presentGenerations: ReadonlySet<string>,
): Promise<SessionPlan> {
  if (entry === undefined) return { kind: 'full', retain: false, why: 'new' };
  if (entry.extractor_version !== extractorVersion) return { kind: 'full', retain: false, why: 'version' };
  if (entry.segments.some((s) => !presentGenerations.has(s.file))) return { kind: 'full', retain: false, why: 'missing-generation' };
  const listed = new Map(session.files.map((f) => [f.path, f]));
  // Discovery has just stat'ed every file: where it agrees with the cursor, no second stat is needed
  // (nor a promise: thousands of cursors per sweep, nearly all of them unchanged).
  const toCheck: FileCursor[] = [];
  for (const c of entry.cursors) {
    const f = listed.get(c.path);
    // A file the session no longer lists (pruned, or the session now read from a kept copy).
    if (f === undefined) return { kind: 'full', retain: true, why: 'moved' };
    if (!unchangedPerDiscovery(c, f)) toCheck.push(c);
  }
  const changes: FileChange[] = toCheck.length === 0 ? [] : await Promise.all(toCheck.map((c) => checkCursor(c)));
  if (changes.some((c) => c === 'rewritten' || c === 'gone')) return { kind: 'full', retain: true, why: 'rewritten' };
  const known = new Set(entry.cursors.map((c) => c.path));
  for (const p of entry.ignored) known.add(p);
  const added = session.files.some((f) => !known.has(f.path));
  if (!added && changes.every((c) => c === 'unchanged')) return { kind: 'skip' };
  return { kind: 'resume' };
}
