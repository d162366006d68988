import { describe, expect, it } from 'vitest';
import { sortDispensers, type DispenserRow } from './dispenser-sort.ts';

const row = (kiosk: string, name: string, capacity: number | null, site: string | null = null): DispenserRow => ({
  kiosk,
  name,
  capacity,
  devices: 0,
  site,
  state: null,
});

describe('sortDispensers', () => {
  const rows = [row('b', 'b1', 5), row('a', 'a2', null, 'north'), row('a', 'a1', 10, 'south')];
  it('sorts by a column either way, nulls last, then by kiosk and name', () => {
    expect(sortDispensers(rows, 'capacity', 'asc').map((r) => r.name)).toEqual(['b1', 'a1', 'a2']);
    expect(sortDispensers(rows, 'capacity', 'desc').map((r) => r.name)).toEqual(['a1', 'b1', 'a2']);
    expect(sortDispensers(rows, 'kiosk', 'asc').map((r) => r.name)).toEqual(['a1', 'a2', 'b1']);
    expect(sortDispensers(rows, 'site', 'desc').map((r) => r.name)).toEqual(['a1', 'a2', 'b1']);
  });
});
