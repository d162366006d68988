/** A job run on an interval, which a shutdown can wait out. */
export interface Periodic {
  /** No new run starts; resolves when the run under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `job` every `ms` without holding the process open. A run still under way when the next is
 * due is not joined by another (a slow sweep does not pile up behind itself), a failure goes to
 * `onError`, and `stop()` waits for the run under way: a sweep that began just before a shutdown
 * ends before the database it queries is closed.
 */
export function every(ms: number, job: () => Promise<unknown>, onError: (err: unknown) => void): Periodic {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = job()
      .then(
        () => undefined,
        (err: unknown) => onError(err),
      )
      .finally(() => {
        running = null;
      });
  }, ms);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
