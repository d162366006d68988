import { JUST_NOW_MS } from '@fleet/shared/constants';

const pad = (n: number) => String(n).padStart(2, '0');

/** `day.month.year` (core §2's date format), e.g. 07.03.2025; '' for an unreadable date. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${date.getFullYear()}`;
}

/** Date and time for tooltips and titles, in the browser's locale. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** Relative time such as '3 minutes ago'; 'just now' under 5 seconds (core §9). */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  const diff = time - now;
  if (Math.abs(diff) < JUST_NOW_MS) return 'just now';
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return relative.format(Math.trunc(diff / ms), unit);
  }
  return '';
}
