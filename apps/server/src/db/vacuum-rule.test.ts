import { describe, expect, it } from 'vitest';
import { chooseMaintenance, type TableCounters } from './vacuum-rule.ts';

const t = (table: string, live: number, dead: number, modifiedSinceAnalyze = 0): TableCounters => ({
  table,
  live,
  dead,
  modifiedSinceAnalyze,
});

describe('chooseMaintenance', () => {
  it('vacuums the table whose dead rows pass 50 + 0.2 × live by the most', () => {
    expect(chooseMaintenance([t('a', 1000, 251), t('b', 100_000, 20_100), t('c', 10, 60)])).toEqual({
      table: 'b',
      work: 'vacuum',
    });
  });

  it('leaves a table at its threshold alone, and analyzes one past 50 + 0.1 × live', () => {
    expect(chooseMaintenance([t('a', 1000, 250, 150), t('b', 1000, 0, 151)])).toEqual({ table: 'b', work: 'analyze' });
  });

  it('does nothing when no table is due', () => {
    expect(chooseMaintenance([t('a', 1000, 250, 150)])).toBeNull();
    expect(chooseMaintenance([])).toBeNull();
  });
});
