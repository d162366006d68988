import { describe, expect, it } from 'vitest';
import { deviceSeed, seededRandom, weighted } from './random.ts';

describe('seeded randomness', () => {
  it('replays the same sequence from the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const seq = (r: () => number) => Array.from({ length: 5 }, r);
    expect(seq(a)).toEqual(seq(b));
    expect(seq(seededRandom(43))).not.toEqual(seq(seededRandom(42)));
  });

  it('gives each device its own seed, fixed by the fleet seed and its id', () => {
    expect(deviceSeed(1, '240ac4de0001')).toBe(deviceSeed(1, '240ac4de0001'));
    expect(deviceSeed(1, '240ac4de0001')).not.toBe(deviceSeed(1, '240ac4de0002'));
    expect(deviceSeed(1, '240ac4de0001')).not.toBe(deviceSeed(2, '240ac4de0001'));
  });

  it('picks by weight', () => {
    const rng = seededRandom(7);
    const counts = { a: 0, b: 0, never: 0 };
    for (let i = 0; i < 10_000; i++) {
      counts[
        weighted(rng, [
          ['a', 3],
          ['b', 1],
          ['never', 0],
        ] as const)
      ]++;
    }
    expect(counts.never).toBe(0);
    expect(counts.a / counts.b).toBeGreaterThan(2.5);
    expect(counts.a / counts.b).toBeLessThan(3.5);
  });
});
