// What a sweep does with one discovered session, from its stored cursors: skip it (unchanged),
// resume it after appends, or extract it again (rewritten, gone files, another extractor version,
// or a shard whose generation files went missing).
import type { DiscoveredSession } from '../agents/types.js';
import { checkCursor, type FileChange } from './file-cursor.js';
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
  const known = new Set(entry.cursors.map((c) => c.path));
  for (const p of entry.ignored) known.add(p);
  const listed = new Set(session.files.map((f) => f.path));
  // A file the session no longer lists (pruned, or the session now read from a kept copy).
  for (const c of entry.cursors) if (!listed.has(c.path)) return { kind: 'full', retain: true, why: 'moved' };
  const changes: FileChange[] = await Promise.all(entry.cursors.map((c) => checkCursor(c)));
  if (changes.some((c) => c === 'rewritten' || c === 'gone')) return { kind: 'full', retain: true, why: 'rewritten' };
  const added = session.files.some((f) => !known.has(f.path));
  if (!added && changes.every((c) => c === 'unchanged')) return { kind: 'skip' };
  return { kind: 'resume' };
}
