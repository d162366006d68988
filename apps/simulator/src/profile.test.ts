import { describe, expect, it } from 'vitest';
import { FIRMWARE_SPREAD, initialStatus } from './profile.ts';
import { seededRandom } from './random.ts';

describe('initial fleet spread', () => {
  const fleet = Array.from({ length: 1_000 }, (_, i) => initialStatus(seededRandom(i)));

  it('spreads firmware versions by their weights', () => {
    const count = (v: string) => fleet.filter((s) => s.fwVersion === v).length;
    for (const [version] of FIRMWARE_SPREAD) expect(count(version)).toBeGreaterThan(50);
    expect(count('1.5.1')).toBeGreaterThan(count('2.0.0-rc1'));
  });

  it('covers every battery band and docks some devices', () => {
    expect(fleet.every((s) => s.battery >= 0 && s.battery <= 100)).toBe(true);
    expect(fleet.some((s) => s.battery > 75)).toBe(true);
    expect(fleet.some((s) => s.battery > 50 && s.battery <= 75)).toBe(true);
    expect(fleet.some((s) => s.battery <= 50)).toBe(true);
    expect(fleet.filter((s) => s.state === 'charging').length).toBeGreaterThan(100);
  });

  it('is the same for the same seed', () => {
    expect(initialStatus(seededRandom(5))).toEqual(initialStatus(seededRandom(5)));
  });
});
