// The sweep's view of the manifest: entries change in memory and are written in batches, each write
// under the writer lock and against the latest manifest on disk, so a writer that lost a race never
// rolls back another's newer work (seed 000: stale-writer rejection by watermark).
import { checkCursor } from './file-cursor.js';
import { SearchError } from './errors.js';
import { snapshotId, type Manifest, type ManifestEntry } from './manifest.js';
import { guardFormat, manifestStamp, readManifest, rememberManifest, writeManifest } from './store.js';
import type { WriterLock } from './writer-lock.js';

/**
 * Whether `incoming` may replace `existing`. A lower watermark over the same files whose stored
 * cursors still read unchanged or appended is a stale writer's; a lower watermark with a changed
 * cursor set or a rewritten/gone source is a legitimate rebuild.
 */
export async function acceptPublish(existing: ManifestEntry | undefined, incoming: ManifestEntry): Promise<boolean> {
  if (existing === undefined || incoming.watermark >= existing.watermark) return true;
  const before = new Set(existing.cursors.map((c) => c.path));
  if (before.size !== incoming.cursors.length || incoming.cursors.some((c) => !before.has(c.path))) return true;
  const live = await Promise.all(existing.cursors.map((c) => checkCursor(c)));
  return live.some((c) => c === 'rewritten' || c === 'gone');
}

export class ManifestWriter {
  private changed = new Set<string>();
  private removed = new Set<string>();
  private windowChanged = false;
  private base: string;
  writes = 0;
  rejected = 0;

  constructor(
    private readonly root: string,
    private current: Manifest,
    private readonly lock: WriterLock,
    private readonly now: () => number,
    /** The manifest file's stamp when `current` was read (null: none yet, or unknown). */
    private stamp: string | null = null,
  ) {
    this.base = snapshotId(current);
  }

  get manifest(): Manifest {
    return this.current;
  }

  get dirty(): boolean {
    return this.changed.size > 0 || this.removed.size > 0 || this.windowChanged;
  }

  get pending(): number {
    return this.changed.size + this.removed.size;
  }

  put(key: string, entry: ManifestEntry): void {
    this.current.sessions[key] = entry;
    this.changed.add(key);
    this.removed.delete(key);
  }

  remove(key: string): void {
    if (!(key in this.current.sessions)) return;
    delete this.current.sessions[key];
    this.removed.add(key);
    this.changed.delete(key);
  }

  setWindow(days: number): void {
    if (this.current.window_days === days) return;
    this.current.window_days = days;
    this.windowChanged = true;
  }

  /** Writes pending changes (only if any), re-reading the manifest first in case another writer wrote. */
  async flush(): Promise<void> {
    if (!this.dirty) return;
    if (!(await this.lock.held())) {
      throw new SearchError(
        'IndexBusy',
        'another agentlog took over the search index while this sweep ran; its work is kept, run `agentlog index` again to finish',
      );
    }
    // Someone else wrote only if the file changed since we read or wrote it (cheap: one stat).
    const unchanged = this.stamp !== null && (await manifestStamp(this.root)) === this.stamp;
    const disk = unchanged ? null : await readManifest(this.root);
    if (disk !== null && disk.state === 'ok' && snapshotId(disk.manifest) !== this.base) {
      guardFormat(disk.manifest);
      const merged: Manifest = { ...disk.manifest, sessions: { ...disk.manifest.sessions }, window_days: this.current.window_days };
      for (const key of this.changed) {
        const incoming = this.current.sessions[key] as ManifestEntry;
        if (await acceptPublish(merged.sessions[key], incoming)) merged.sessions[key] = incoming;
        else this.rejected++;
      }
      for (const key of this.removed) delete merged.sessions[key];
      this.current = merged;
    }
    this.current = await writeManifest(this.root, this.current, this.now());
    this.stamp = await manifestStamp(this.root);
    rememberManifest(this.root, this.stamp, this.current);
    this.base = snapshotId(this.current);
    this.writes++;
    this.changed.clear();
    this.removed.clear();
    this.windowChanged = false;
  }
}
