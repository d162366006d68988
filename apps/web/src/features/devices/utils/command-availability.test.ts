import { describe, expect, it } from 'vitest';
import { ASLEEP_HINT, UNRESPONSIVE_HINT, commandAvailability } from './command-availability.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

describe('commandAvailability', () => {
  it('disables commands for a device silent for over 20 minutes, connected or not', () => {
    for (const online of [true, false])
      expect(commandAvailability({ updated_at: ago(21), online }, NOW)).toEqual({
        enabled: false,
        note: UNRESPONSIVE_HINT,
        asleep: false,
      });
    expect(commandAvailability({ updated_at: 'never', online: true }, NOW).enabled).toBe(false);
  });

  it('allows commands to a responsive device', () => {
    expect(commandAvailability({ updated_at: ago(19), online: true }, NOW)).toEqual({
      enabled: true,
      note: null,
      asleep: false,
    });
  });

  it('marks a responsive but disconnected device asleep: commands allowed and held', () => {
    expect(commandAvailability({ updated_at: ago(5), online: false }, NOW)).toEqual({
      enabled: true,
      note: ASLEEP_HINT,
      asleep: true,
    });
    expect(ASLEEP_HINT).toBe('Asleep — commands wait until it wakes');
  });
});
