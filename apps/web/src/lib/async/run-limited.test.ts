import { describe, expect, it } from 'vitest';
import { runLimited } from './run-limited.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('runLimited', () => {
  it('never runs more than the limit at once and answers in item order', async () => {
    let running = 0;
    let peak = 0;
    const results = await runLimited(
      [5, 1, 4, 2, 3, 1, 1],
      async (n) => {
        running++;
        peak = Math.max(peak, running);
        for (let i = 0; i < n; i++) await tick();
        running--;
        return n * 10;
      },
      { limit: 3 },
    );
    expect(peak).toBe(3);
    expect(results.map((r) => r.status === 'fulfilled' && r.value)).toEqual([50, 10, 40, 20, 30, 10, 10]);
  });

  it('keeps going after a failure and reports it at its index', async () => {
    const progress: number[] = [];
    const results = await runLimited(
      ['a', 'b', 'c'],
      async (s) => {
        if (s === 'b') throw new Error('no b');
        return s;
      },
      { limit: 2, onSettled: (done) => progress.push(done) },
    );
    expect(results).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'rejected', reason: new Error('no b') },
      { status: 'fulfilled', value: 'c' },
    ]);
    expect(progress).toEqual([1, 2, 3]);
  });

  it('starts nothing new once aborted', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const results = await runLimited(
      [0, 1, 2, 3, 4],
      async (n) => {
        started.push(n);
        if (n === 1) controller.abort();
        await tick();
      },
      { limit: 2, signal: controller.signal },
    );
    expect(started).toEqual([0, 1]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'skipped', 'skipped', 'skipped']);
  });

  it('answers at once for no items', async () => {
    expect(await runLimited([], async () => 1, { limit: 4 })).toEqual([]);
  });
});
