// Listing pages kept while the database has not changed: each filed under the driver's change
// stamp read before its query, and all dropped when the stamp moves, so a commit by this process
// or another is seen by the next read (a listing costs its SQL and JSON rendering only once per write).

export class StampedCache<V> {
  private stamp: string | null = null;
  private readonly entries = new Map<string, V>();

  /** @param max pages kept for one stamp (the oldest goes first past it). */
  constructor(private readonly max: number) {}

  /** The page filed under `key` at this stamp; a new stamp empties the cache. */
  get(stamp: string, key: string): V | undefined {
    if (stamp !== this.stamp) {
      this.entries.clear();
      this.stamp = stamp;
      return undefined;
    }
    return this.entries.get(key);
  }

  /**
   * Files a page whose query ran after `stamp` was read. When the cache has moved to a newer stamp
   * the page is dropped: it may predate the commit that moved it.
   */
  set(stamp: string, key: string, value: V): void {
    if (stamp !== this.stamp) return;
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}
