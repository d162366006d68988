import { describe, expect, it } from 'vitest';
import { provisionOutcome } from './provision-outcome.ts';

describe('provisionOutcome', () => {
  it.each([
    [{ total_files: 3, completed_files: 3, failed_files: 0 }, 'success'],
    [{ total_files: 3, completed_files: 0, failed_files: 3 }, 'failed'],
    [{ total_files: 3, completed_files: 2, failed_files: 1 }, 'partial'],
    [{ total_files: 3, completed_files: 0, failed_files: 1 }, 'partial'],
  ] as const)('%o is %s', (counters, outcome) => {
    expect(provisionOutcome(counters)).toBe(outcome);
  });
});
