// The coverage plan of a query: the one order in which every page visits a snapshot's sessions
// (newest message first, then key), which of them the request can match, and how far a scan has
// got. The order depends only on the manifest, so an unchanged index is always covered the same way.
import type { AgentId } from '../record/types.js';
import type { Manifest, ManifestEntry } from './manifest.js';

export class ScanPlan {
  readonly order: readonly (readonly [string, ManifestEntry])[];
  private readonly ok: Uint8Array;
  /** `before[i]`: eligible sessions at indices below i. */
  private readonly before: Uint32Array;

  constructor(manifest: Manifest, horizon: number, agents: ReadonlySet<AgentId> | null) {
    this.order = Object.entries(manifest.sessions).sort(
      ([ka, a], [kb, b]) => b.newest_ts_ms - a.newest_ts_ms || (ka < kb ? -1 : ka > kb ? 1 : 0),
    );
    const n = this.order.length;
    this.ok = new Uint8Array(n);
    this.before = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const e = (this.order[i] as readonly [string, ManifestEntry])[1];
      const ok = e.records > 0 && e.newest_ts_ms >= horizon && (agents === null || agents.has(e.agent));
      this.ok[i] = ok ? 1 : 0;
      this.before[i + 1] = (this.before[i] as number) + (ok ? 1 : 0);
    }
  }

  get length(): number {
    return this.order.length;
  }

  /** Whether the session at `i` can hold a hit for the request (it said something inside the window). */
  eligible(i: number): boolean {
    return this.ok[i] === 1;
  }

  /** Sessions the request can match. */
  get eligibleCount(): number {
    return this.before[this.order.length] as number;
  }

  /** Eligible sessions before index `i` (searched, once a scan has reached `i`). */
  eligibleBefore(i: number): number {
    return this.before[Math.min(i, this.order.length)] as number;
  }

  newestAt(i: number): number {
    return (this.order[i] as readonly [string, ManifestEntry])[1].newest_ts_ms;
  }

  /**
   * The newest message of any session not yet searched: no unsearched session can hold a hit newer
   * than this, so a match newer than it sits in its final place. `from` is where the scan goes on;
   * `known(i)` says a session at or after it was searched already. -Infinity when nothing is left.
   */
  frontier(from: number, known: (i: number) => boolean): number {
    for (let i = from; i < this.order.length; i++) {
      if (this.eligible(i) && !known(i)) return this.newestAt(i);
    }
    return Number.NEGATIVE_INFINITY;
  }
}
