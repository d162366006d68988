/** The clock and timer `keptFresh` runs on (tests pass their own). */
export interface FreshClock {
  now(): number;
  /** Calls `tick` every `ms` until the answered stop is called; never keeps the process alive. */
  every(ms: number, tick: () => void): () => void;
}

const realClock: FreshClock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/**
 * `read`, re-read every `everyMs` by a timer started at the first `get`, so a scrape answers from
 * the last read without waiting on the database. Reads never overlap. A `get` waits for a read
 * only before the first one, or when the last good one is `2 × everyMs` old (reads failing or
 * stuck): then it shares that read and fails with it. `onError` hears the timer's failed reads.
 */
export function keptFresh<T>(
  everyMs: number,
  read: () => Promise<T>,
  onError: (err: unknown) => void,
  clock: FreshClock = realClock,
) {
  let last: { at: number; value: T } | null = null;
  let inFlight: Promise<T> | null = null;
  let stop: (() => void) | null = null;
  const refresh = (): Promise<T> => {
    if (inFlight) return inFlight;
    const at = clock.now();
    const running = read().then(
      (value) => {
        last = { at, value };
        inFlight = null;
        return value;
      },
      (err: unknown) => {
        inFlight = null;
        throw err;
      },
    );
    inFlight = running;
    return running;
  };
  return {
    get(): Promise<T> {
      stop ??= clock.every(everyMs, () => void refresh().catch(onError));
      if (last && clock.now() - last.at < 2 * everyMs) return Promise.resolve(last.value);
      return refresh();
    },
    /** Stops the timer; resolves once a read in flight has ended (the database may close then). */
    async close() {
      stop?.();
      stop = null;
      await inFlight?.catch(() => undefined);
    },
  };
}
