/** How one item of `runLimited` ended; `skipped` items were never started because of the signal. */
export type Settled<R> =
  { status: 'fulfilled'; value: R } | { status: 'rejected'; reason: unknown } | { status: 'skipped' };

export interface RunLimitedOptions {
  /** At most this many calls run at once (at least 1). */
  limit: number;
  /** Once aborted, no further item starts; running ones finish. */
  signal?: AbortSignal;
  /** Called after each item settles, with the count settled so far. */
  onSettled?(done: number, index: number): void;
}

/**
 * Calls `work` for every item with at most `limit` calls in flight, in order of the items, and
 * answers each item's outcome at its own index. It never rejects: a failing item is `rejected`.
 */
export async function runLimited<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
  { limit, signal, onSettled }: RunLimitedOptions,
): Promise<Settled<R>[]> {
  const results: Settled<R>[] = items.map(() => ({ status: 'skipped' }));
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < items.length && !signal?.aborted) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await work(items[index] as T, index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
      onSettled?.(++done, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return results;
}
