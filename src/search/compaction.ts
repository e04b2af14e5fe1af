// When a session's segments merge. An append adds one small segment; the tail merges like a binary
// counter (while the previous segment is no bigger than the merged tail), so a busy session keeps
// O(log n) segments and each byte is rewritten O(log n) times: a sweep's cost stays proportional
// to what was appended, not to the session's size.

/** More segments than this always merge into one. */
export const maxSegments = 24;

/**
 * Given the byte sizes of a shard's segments (newest last), the index of the first segment to merge
 * with everything after it; `sizes.length - 1` means no merge.
 * Example: mergeFrom([8, 4, 2, 1, 1]) → 0 (1+1 ≥ 2, then 4 ≥ 4, then 8 ≥ 8).
 */
export function mergeFrom(sizes: readonly number[]): number {
  const n = sizes.length;
  if (n <= 1) return Math.max(0, n - 1);
  if (n > maxSegments) return 0;
  let i = n - 1;
  let tail = sizes[i] as number;
  while (i > 0 && (sizes[i - 1] as number) <= tail) {
    i--;
    tail += sizes[i] as number;
  }
  return i;
}
