/** A dispenser as the Return Device table shows it (fleet §2: Kiosk, Dispenser, Capacity, Site, State). */
export interface DispenserRow {
  kiosk: string;
  name: string;
  capacity: number | null;
  devices: number;
  site: string | null;
  state: string | null;
}

export type DispenserSort = 'kiosk' | 'name' | 'capacity' | 'site' | 'state';
export type SortOrder = 'asc' | 'desc';

/** Rows sorted by the column (nulls last either way), then by kiosk and dispenser name. */
export function sortDispensers(rows: DispenserRow[], column: DispenserSort, order: SortOrder): DispenserRow[] {
  const sign = order === 'asc' ? 1 : -1;
  const value = (r: DispenserRow) => r[column];
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      if (c !== 0) return sign * c;
    }
    return a.kiosk.localeCompare(b.kiosk) || a.name.localeCompare(b.name);
  });
}
