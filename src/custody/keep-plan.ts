// The keep planner: pure. Given what the vendor tree holds and what custody holds, one action per
// vendor file. Files only custody holds are never in the plan: custody never deletes.
//
// Like rsync's quick check, a file whose size and mtime both match what custody (or its manifest)
// recorded is taken as unchanged: a `vouched` file is skipped unread, an unvouched one has only its
// last block compared. So an in-place rewrite that keeps the size and puts the mtime back (a tool
// doing `touch -r`, a restore from backup) escapes `keep`, as it escapes `rsync` without `-c`. The
// cost of reading every byte of every session on each keep is what this trades away; a content
// comparison of every file (rsync's `--checksum`) is the remedy where that risk matters.

export interface SourceFacts {
  relPath: string;
  size: number;
  /** Null for an export (a database's rows) that has no file time: such a file is always verified. */
  mtimeMs: number | null;
  /** The keep manifest vouches it is as it was when last kept (keep-manifest.ts): skipped unlooked. */
  vouched?: boolean;
}

export interface KeptFacts {
  size: number;
  mtimeMs: number;
}

export const keepActionKinds = ['copy', 'extend', 'refresh', 'verify', 'tail', 'skip'] as const;
export type KeepActionKind = (typeof keepActionKinds)[number];

export type KeepAction =
  /** Not kept yet: copy it whole (temp + fsync + rename). */
  | { kind: 'copy'; relPath: string }
  /** Grown: append the bytes past `from` if the kept bytes are a true prefix, else refresh. */
  | { kind: 'extend'; relPath: string; from: number }
  /** Shrunk: replace it, keeping the previous kept bytes as a numbered backup. */
  | { kind: 'refresh'; relPath: string }
  /** Same size, different time: compare the bytes (tail first); equal is a skip, else a refresh (an extend if it grew meanwhile). */
  | { kind: 'verify'; relPath: string }
  /**
   * Same size and time as the kept copy, with no manifest to vouch for it: compare the last block,
   * where a same-size edit whose time was put back would show; equal is a skip, else a refresh.
   */
  | { kind: 'tail'; relPath: string }
  /** The keep manifest vouches it is unchanged since it was last kept: neither side is read. */
  | { kind: 'skip'; relPath: string };

/** Kept files carry the vendor file's mtime; a sub-millisecond difference is float rounding in utimes. */
export function sameTime(a: number, b: number): boolean {
  return Math.abs(a - b) < 1;
}

/**
 * One action per source file, sorted by relPath. A vouched file needs no kept facts. `verify`
 * (keep --verify) drops the quick check: every file of the kept size is compared byte for byte.
 */
export function planKeep(sources: readonly SourceFacts[], kept: ReadonlyMap<string, KeptFacts | null>, verify = false): KeepAction[] {
  return [...sources]
    .sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0))
    .map((s): KeepAction => {
      if (s.vouched === true && !verify) return { kind: 'skip', relPath: s.relPath };
      const k = kept.get(s.relPath) ?? null;
      if (k === null) return { kind: 'copy', relPath: s.relPath };
      if (s.size > k.size) return { kind: 'extend', relPath: s.relPath, from: k.size };
      if (s.size < k.size) return { kind: 'refresh', relPath: s.relPath };
      if (!verify && s.mtimeMs !== null && sameTime(s.mtimeMs, k.mtimeMs)) return { kind: 'tail', relPath: s.relPath };
      return { kind: 'verify', relPath: s.relPath };
    });
}
