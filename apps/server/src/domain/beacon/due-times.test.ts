import { describe, expect, it } from 'vitest';
import { dueDoses } from './due-times.ts';

const med = (time: string, name = 'Aspirin') => ({ name, dosage: '100 mg', time });
const at = (h: number, m: number, day = 10) => new Date(2026, 10, day, h, m);

describe('dueDoses', () => {
  it('is due from the time itself until an hour later, not before', () => {
    expect(dueDoses([med('08:00')], at(7, 59))).toEqual([]);
    expect(dueDoses([med('08:00')], at(8, 0))).toEqual([
      { date: '2026-11-10', time: '08:00', medications: ['Aspirin 100 mg at 08:00'] },
    ]);
    expect(dueDoses([med('08:00')], at(8, 59))).toHaveLength(1);
    expect(dueDoses([med('08:00')], at(9, 0))).toEqual([]);
  });

  it('makes medications at the same time one dose', () => {
    const doses = dueDoses([med('12:00'), med('12:00', 'Metformin'), med('18:00')], at(12, 10));
    expect(doses).toEqual([
      {
        date: '2026-11-10',
        time: '12:00',
        medications: ['Aspirin 100 mg at 12:00', 'Metformin 100 mg at 12:00'],
      },
    ]);
  });

  it('keeps a late-evening dose due after midnight, on the day it belonged to', () => {
    expect(dueDoses([med('23:30')], at(0, 10, 11))).toEqual([
      { date: '2026-11-10', time: '23:30', medications: ['Aspirin 100 mg at 23:30'] },
    ]);
  });
});
