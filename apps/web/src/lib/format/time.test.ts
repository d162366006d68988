import { describe, expect, it } from 'vitest';
import { formatDate, formatRelative } from './time.ts';

const NOW = Date.parse('2025-03-07T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('formatRelative', () => {
  it("reads 'just now' under 5 seconds", () => {
    expect(formatRelative(ago(0), NOW)).toBe('just now');
    expect(formatRelative(ago(4_999), NOW)).toBe('just now');
  });

  it('picks the largest whole unit', () => {
    expect(formatRelative(ago(5_000), NOW)).toBe('5 seconds ago');
    expect(formatRelative(ago(3 * 60_000), NOW)).toBe('3 minutes ago');
    expect(formatRelative(ago(2 * 3600_000), NOW)).toBe('2 hours ago');
    expect(formatRelative(ago(26 * 3600_000), NOW)).toBe('yesterday');
  });

  it('gives an empty string for an unreadable date', () => {
    expect(formatRelative('not a date', NOW)).toBe('');
  });
});

describe('formatDate', () => {
  it('writes day.month.year with two-digit day and month', () => {
    expect(formatDate(new Date(2025, 2, 7, 10).toISOString())).toBe('07.03.2025');
  });
});
