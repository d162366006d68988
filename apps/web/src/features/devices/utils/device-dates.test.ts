import { describe, expect, it } from 'vitest';
import { formatDate, formatRelative } from '@/lib/format/time.ts';

// The list's Created Date and Last Updated columns (core §2, §9) use these shared formatters.
const NOW = new Date(2026, 10, 22, 12, 0, 0).getTime();
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('device list dates', () => {
  it('shows the creation date as day.month.year', () => {
    expect(formatDate(new Date(2026, 10, 22, 9, 30).toISOString())).toBe('22.11.2026');
    expect(formatDate(new Date(2026, 0, 5).toISOString())).toBe('05.01.2026');
  });

  it("shows the last update relatively, 'just now' under 5 seconds", () => {
    expect(formatRelative(ago(4_999), NOW)).toBe('just now');
    expect(formatRelative(ago(5_000), NOW)).toBe('5 seconds ago');
    expect(formatRelative(ago(3 * 60_000), NOW)).toBe('3 minutes ago');
    expect(formatRelative(ago(21 * 60_000), NOW)).toBe('21 minutes ago');
  });
});
