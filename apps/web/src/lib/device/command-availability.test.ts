import { describe, expect, it } from 'vitest';
import { ASLEEP_HINT, NOT_CONNECTED_HINT, UNRESPONSIVE_HINT, commandAvailability } from './command-availability.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const CREATED = ago(60 * 24);

describe('commandAvailability', () => {
  it('disables commands for a device silent for over 20 minutes, connected or not', () => {
    for (const online of [true, false])
      expect(commandAvailability({ updated_at: ago(21), created_at: CREATED, online }, NOW)).toEqual({
        enabled: false,
        note: UNRESPONSIVE_HINT,
        asleep: false,
        neverConnected: false,
      });
    expect(commandAvailability({ updated_at: 'never', created_at: CREATED, online: true }, NOW).enabled).toBe(false);
  });

  it('allows commands to a responsive device', () => {
    expect(commandAvailability({ updated_at: ago(19), created_at: CREATED, online: true }, NOW)).toEqual({
      enabled: true,
      note: null,
      asleep: false,
      neverConnected: false,
    });
  });

  it('marks a responsive but disconnected device asleep: commands allowed and held', () => {
    expect(commandAvailability({ updated_at: ago(5), created_at: CREATED, online: false }, NOW)).toEqual({
      enabled: true,
      note: ASLEEP_HINT,
      asleep: true,
      neverConnected: false,
    });
    expect(ASLEEP_HINT).toBe('Asleep — commands wait until it wakes');
  });

  it('says a device registered but never heard from is not connected yet, not asleep', () => {
    const registered = ago(5);
    expect(commandAvailability({ updated_at: registered, created_at: registered, online: false }, NOW)).toEqual({
      enabled: true,
      note: NOT_CONNECTED_HINT,
      asleep: true,
      neverConnected: true,
    });
  });
});
