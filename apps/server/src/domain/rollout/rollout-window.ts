import type { RolloutWindow } from '@fleet/shared/schemas/rollout';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The weekday (0 Sunday) and minute of the day of `at` in the time zone `tz`. */
export function localTime(at: Date, tz: string): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: DAYS.indexOf(part('weekday')), minute: Number(part('hour')) * 60 + Number(part('minute')) };
}

/**
 * Whether a rollout may send at `at`: always without a window; else on a listed day between
 * `from` (included) and `to` (excluded), local time of the window's zone. A window whose `to` is
 * before its `from` spans midnight: it opens on a listed day and its early hours belong to the
 * day before (Friday 22:00–06:00 is still open at Saturday 05:59).
 */
export function inWindow(window: RolloutWindow | null, at: Date): boolean {
  if (!window) return true;
  const { day, minute } = localTime(at, window.tz);
  const from = minutes(window.from);
  const to = minutes(window.to);
  if (from < to) return window.days.includes(day) && minute >= from && minute < to;
  if (minute >= from) return window.days.includes(day);
  return minute < to && window.days.includes((day + 6) % 7);
}
