import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import { describe, expect, it } from 'vitest';
import { batteryLook, isUnresponsive } from './device-health.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('isUnresponsive', () => {
  it('holds only past 20 minutes without a sign of life', () => {
    expect(UNRESPONSIVE_AFTER_MS).toBe(20 * 60_000);
    expect(isUnresponsive(ago(0), NOW)).toBe(false);
    expect(isUnresponsive(ago(19 * 60_000), NOW)).toBe(false);
    expect(isUnresponsive(ago(20 * 60_000), NOW)).toBe(false);
    expect(isUnresponsive(ago(20 * 60_000 + 1), NOW)).toBe(true);
    expect(isUnresponsive(ago(3 * 24 * 3600_000), NOW)).toBe(true);
  });

  it('treats an unreadable date as unresponsive', () => {
    expect(isUnresponsive('never', NOW)).toBe(true);
  });
});

describe('batteryLook', () => {
  it('colours the bands green above 75, amber above 50, red at 50 and below', () => {
    expect(batteryLook(100)).toEqual({ band: 'High', tone: 'green' });
    expect(batteryLook(76)).toEqual({ band: 'High', tone: 'green' });
    expect(batteryLook(75)).toEqual({ band: 'Medium', tone: 'yellow' });
    expect(batteryLook(51)).toEqual({ band: 'Medium', tone: 'yellow' });
    expect(batteryLook(50)).toEqual({ band: 'Low', tone: 'red' });
    expect(batteryLook(0)).toEqual({ band: 'Low', tone: 'red' });
  });

  it('has nothing to show for a device that never reported', () => {
    expect(batteryLook(null)).toBeNull();
  });
});
