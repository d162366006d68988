import { describe, expect, it } from 'vitest';
import { formatSize } from './format-size.ts';

describe('formatSize', () => {
  it('shows Bytes, KB, MB and GB', () => {
    expect(formatSize(0)).toBe('0 Bytes');
    expect(formatSize(512)).toBe('512 Bytes');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(10_000_000)).toBe('9.54 MB');
    expect(formatSize(3 * 1024 ** 3)).toBe('3 GB');
    expect(formatSize(5 * 1024 ** 4)).toBe('5120 GB');
  });
});
