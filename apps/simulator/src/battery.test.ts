import { describe, expect, it } from 'vitest';
import { BATTERY_RATE_PER_HOUR, nextBattery, reportedBattery } from './battery.ts';

const HOUR = 3_600_000;

describe('battery model', () => {
  it('drains faster dispensing than idle, and barely asleep', () => {
    const after = (draw: Parameters<typeof nextBattery>[1]) => 80 - nextBattery(80, draw, HOUR);
    expect(after('dispensing')).toBeGreaterThan(after('idle'));
    expect(after('idle')).toBeGreaterThan(after('asleep'));
    expect(after('asleep')).toBeGreaterThan(0);
  });

  it('rises while charging, in proportion to the time passed', () => {
    expect(nextBattery(20, 'charging', HOUR / 2)).toBeCloseTo(20 + BATTERY_RATE_PER_HOUR.charging / 2);
  });

  it('stays between 0 and 100', () => {
    expect(nextBattery(99, 'charging', HOUR)).toBe(100);
    expect(nextBattery(1, 'dispensing', HOUR)).toBe(0);
  });

  it('reports whole percents, and 0 only when nothing is left', () => {
    expect(reportedBattery(57.6)).toBe(58);
    expect(reportedBattery(0.2)).toBe(1);
    expect(reportedBattery(0)).toBe(0);
  });
});
