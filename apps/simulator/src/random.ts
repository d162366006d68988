/** A source of numbers in [0, 1). Seeded, so a run can be replayed from its `--seed`. */
export type Random = () => number;

/** mulberry32: tiny, fast and good enough to make a fleet look varied; not for secrets. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A device's own seed from the fleet's seed and its id (FNV-1a), so a device behaves the same
 * whatever else is in the fleet and in whatever order the fleet starts.
 */
export function deviceSeed(fleetSeed: number, id: string): number {
  let h = 0x811c9dc5 ^ (fleetSeed >>> 0);
  for (const ch of id) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** True with probability `p`. */
export const chance = (rng: Random, p: number): boolean => rng() < p;

/** A number in [min, max). */
export const between = (rng: Random, min: number, max: number): number => min + rng() * (max - min);

/** One of `choices`, each as likely as its weight. */
export function weighted<T>(rng: Random, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [value, w] of choices) {
    r -= w;
    if (r < 0) return value;
  }
  return choices[choices.length - 1]![0];
}

/**
 * Whether something with mean duration `meanMs` ends within `elapsedMs` (a Poisson process), so
 * the odds do not depend on how often the caller asks.
 */
export const endsWithin = (rng: Random, elapsedMs: number, meanMs: number): boolean =>
  chance(rng, 1 - Math.exp(-elapsedMs / meanMs));
