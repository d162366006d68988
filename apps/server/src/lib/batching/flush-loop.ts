/**
 * When a flush takes its batch. `when-called`: at the flush() call, so each call writes what was
 * pending at that moment, queued behind the write in progress (small writes that keep the other
 * queries' waits short). `when-flush-starts`: when the write before it has finished, so while
 * the database is slow everything arriving gathers into one larger write instead of a queue of
 * small ones that falls further behind with every interval; one flush waits at most.
 */
export type TakeBatch = 'when-called' | 'when-flush-starts';

/** The timer functions a loop uses (the global ones unless a test injects its own). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const globalTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface FlushLoopOptions<B> {
  take: TakeBatch;
  /** A flush follows the first item added after the last flush by at most this long. */
  intervalMs: number;
  /** A flush starts at once when this many items are pending (no size trigger when unset). */
  maxBatch?: number;
  /** Hands over everything pending and starts afresh; undefined when there is nothing to write. */
  collect(): B | undefined;
  /** Writes a batch; flushes never overlap. */
  write(batch: B): Promise<void>;
  /** A write failed; the loop goes on with the next flush. */
  onError(err: unknown): void;
  timers?: Timers;
}

/** A collect() for items kept by key (later news of a key wins): the values, the map emptied; undefined when empty. */
export function takeAll<T>(pending: Map<unknown, T>): T[] | undefined {
  if (pending.size === 0) return undefined;
  const batch = [...pending.values()];
  pending.clear();
  return batch;
}

/** What the metrics read of a loop at scrape time, and where they hear each write's duration. */
export interface LoopProbe {
  /** Items waiting, as of the last addition (0 once a flush took them). */
  readonly depth: number;
  /** Told each write's duration in seconds, failed ones too (the metrics plugin sets it). */
  observeWrite: ((seconds: number) => void) | null;
}

/**
 * The accumulate → timer or size trigger → serialised write loop of the batchers. The owner keeps
 * its pending items and its accumulation rule, tells the loop after each addition, and hands the
 * batch over when the loop collects it.
 */
export class FlushLoop<B> implements LoopProbe {
  depth = 0;
  observeWrite: ((seconds: number) => void) | null = null;
  private timer: unknown = null;
  private flushing: Promise<void> = Promise.resolve();
  /** A flush is waiting for the one in progress (when-flush-starts): it will take what is pending then. */
  private queued = false;
  private closed = false;
  private readonly timers: Timers;

  constructor(private readonly o: FlushLoopOptions<B>) {
    this.timers = o.timers ?? globalTimers;
  }

  /** Call after adding: `pending` items now wait. Flushes at once at maxBatch, otherwise within the interval. */
  added(pending: number): void {
    this.depth = pending;
    if (pending >= (this.o.maxBatch ?? Infinity)) void this.flush();
    else if (this.timer === null && !this.closed)
      this.timer = this.timers.setTimeout(() => void this.flush(), this.o.intervalMs);
  }

  /** Writes what is pending after any flush in progress; resolves when it is written (or its failure reported). */
  flush(): Promise<void> {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.o.take === 'when-called') {
      const batch = this.collect();
      if (batch !== undefined) this.flushing = this.flushing.then(() => this.write(batch));
      return this.flushing;
    }
    if (this.queued) return this.flushing;
    this.queued = true;
    this.flushing = this.flushing.then(() => {
      this.queued = false;
      const batch = this.collect();
      return batch === undefined ? undefined : this.write(batch);
    });
    return this.flushing;
  }

  /** Resolves once every flush started until now has finished. */
  settled(): Promise<void> {
    return this.flushing;
  }

  /**
   * Shutdown: no timer is armed any more (a later flush() still writes); waits for the flush in
   * progress, then writes what is left.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    await this.flush();
  }

  private collect(): B | undefined {
    const batch = this.o.collect();
    if (batch !== undefined) this.depth = 0;
    return batch;
  }

  private async write(batch: B): Promise<void> {
    const started = performance.now();
    try {
      await this.o.write(batch);
    } catch (err) {
      this.o.onError(err);
    }
    this.observeWrite?.((performance.now() - started) / 1000);
  }
}
