// The one concurrency pool: map items with at most `n` in flight, results in input order. Overlaps
// file-system latency (fsyncs above all) without unbounded concurrency; stops starting items once
// its signal aborts.

/**
 * Maps `items` through `fn`, at most `n` at once. With a `signal`, no item starts after it aborts;
 * the ones in flight finish and then the abort reason is thrown. Example:
 * `await mapPool(files, 4, (f) => copy(f), signal)`.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && signal?.aborted !== true) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
  signal?.throwIfAborted();
  return out;
}
