import { describe, expect, it } from 'vitest';
import { inWindow, localTime } from './rollout-window.ts';

describe('a rollout window', () => {
  it('reads the day and time in the window’s zone, not the server’s', () => {
    // 2026-11-27 is a Friday; 23:30 UTC is 08:30 Saturday in Tokyo.
    expect(localTime(new Date('2026-11-27T23:30:00Z'), 'Asia/Tokyo')).toEqual({ day: 6, minute: 8 * 60 + 30 });
    expect(localTime(new Date('2026-11-27T23:30:00Z'), 'UTC')).toEqual({ day: 5, minute: 23 * 60 + 30 });
  });

  it('is open on its days between from and to, closed otherwise', () => {
    const w = { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00', tz: 'Europe/Paris' };
    expect(inWindow(w, new Date('2026-11-27T08:00:00Z'))).toBe(true); // Friday 09:00 in Paris
    expect(inWindow(w, new Date('2026-11-27T07:59:00Z'))).toBe(false); // 08:59
    expect(inWindow(w, new Date('2026-11-27T16:00:00Z'))).toBe(false); // 17:00, the end excluded
    expect(inWindow(w, new Date('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
    expect(inWindow(null, new Date('2026-11-28T10:00:00Z'))).toBe(true);
  });

  it('spans midnight when to is before from: the early hours belong to the day it opened', () => {
    const w = { days: [5], from: '22:00', to: '06:00', tz: 'UTC' };
    expect(inWindow(w, new Date('2026-11-27T22:00:00Z'))).toBe(true); // Friday 22:00
    expect(inWindow(w, new Date('2026-11-28T05:59:00Z'))).toBe(true); // Saturday 05:59
    expect(inWindow(w, new Date('2026-11-28T06:00:00Z'))).toBe(false);
    expect(inWindow(w, new Date('2026-11-27T05:00:00Z'))).toBe(false); // Friday early: Thursday's
    expect(inWindow(w, new Date('2026-11-28T22:30:00Z'))).toBe(false); // Saturday night
  });
});
