import { describe, expect, it } from 'vitest';
import { keptFresh, type FreshClock } from './kept-fresh.ts';

/** A clock the test moves, and a timer it fires by hand. */
function manualClock() {
  let tick: (() => void) | null = null;
  const clock: FreshClock & { t: number; fire(): void; running(): boolean } = {
    t: 0,
    now: () => clock.t,
    every(_ms, f) {
      tick = f;
      return () => (tick = null);
    },
    fire: () => tick?.(),
    running: () => tick !== null,
  };
  return clock;
}

describe('counts kept fresh off the scrape', () => {
  it('reads once at the first get, then only on the timer: gets in between never wait on a read', async () => {
    const clock = manualClock();
    let reads = 0;
    const counts = keptFresh(
      5_000,
      async () => ++reads,
      () => undefined,
      clock,
    );
    expect(clock.running()).toBe(false);
    expect(await Promise.all([counts.get(), counts.get()])).toEqual([1, 1]);
    clock.t = 9_999;
    expect(await counts.get()).toBe(1);
    expect(reads).toBe(1);
    clock.fire();
    await Promise.resolve();
    expect(await counts.get()).toBe(2);
    expect(reads).toBe(2);
    await counts.close();
    expect(clock.running()).toBe(false);
  });

  it('shares a read in flight with the timer: reads never overlap', async () => {
    const clock = manualClock();
    let reads = 0;
    let release = () => {};
    const counts = keptFresh(
      5_000,
      () => new Promise<number>((resolve) => (release = () => resolve(++reads))),
      () => undefined,
      clock,
    );
    const first = counts.get();
    clock.fire();
    release();
    expect(await first).toBe(1);
    expect(reads).toBe(1);
  });

  it('keeps no failed read: the timer reports it, and a get on stale counts reads again and fails with it', async () => {
    const clock = manualClock();
    const errors: unknown[] = [];
    let fail = false;
    const counts = keptFresh(
      5_000,
      async () => {
        if (fail) throw new Error('database away');
        return 'counts';
      },
      (err) => errors.push(err),
      clock,
    );
    expect(await counts.get()).toBe('counts');
    fail = true;
    clock.fire();
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    clock.t = 5_000;
    expect(await counts.get()).toBe('counts');
    clock.t = 10_000;
    await expect(counts.get()).rejects.toThrow('database away');
    fail = false;
    expect(await counts.get()).toBe('counts');
  });
});
