import { describe, expect, it } from 'vitest';
import { cachedFor } from './fleet-counts.ts';

describe("the fleet counts' cache", () => {
  it('reads once per max age however often it is asked, and shares a read in flight', async () => {
    let clock = 0;
    let reads = 0;
    const counts = cachedFor(
      5_000,
      async () => ++reads,
      () => clock,
    );
    expect(await Promise.all([counts(), counts()])).toEqual([1, 1]);
    clock = 4_999;
    expect(await counts()).toBe(1);
    clock = 5_000;
    expect(await counts()).toBe(2);
    expect(reads).toBe(2);
  });

  it('keeps no failed read: the next scrape reads again', async () => {
    let fail = true;
    const counts = cachedFor(
      5_000,
      async () => {
        if (fail) throw new Error('database away');
        return 'counts';
      },
      () => 0,
    );
    await expect(counts()).rejects.toThrow('database away');
    fail = false;
    expect(await counts()).toBe('counts');
  });
});
