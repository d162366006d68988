import { describe, expect, it } from 'vitest';
import type { DataviewItem } from '@fleet/shared/schemas/dataview';
import { describePlace, fits, freeCell, nudge, placeNew, withPositions } from './builder-layout.ts';

const item = (i: string, x: number, y: number, w = 1, h = 1): DataviewItem => ({
  i,
  type: 'text',
  x,
  y,
  w,
  h,
  title: '',
  props: {},
});

describe('builder layout', () => {
  it('places new items in the first free cell, row by row, until the 3 × 4 grid is full', () => {
    let items: DataviewItem[] = [];
    for (let n = 0; n < 12; n++) {
      const next = placeNew(items, 'metric', 'M');
      expect(next).not.toBeNull();
      expect([next!.x, next!.y]).toEqual([n % 3, Math.floor(n / 3)]);
      items = [...items, next!];
    }
    expect(new Set(items.map((i) => i.i)).size).toBe(12);
    expect(placeNew(items, 'text', 'T')).toBeNull();
    expect(freeCell([item('a', 0, 0, 3, 1)])).toEqual({ x: 0, y: 1 });
  });

  it('moves and resizes by keyboard, refusing to leave the grid or overlap', () => {
    const items = [item('a', 0, 0), item('b', 2, 0)];
    expect(nudge(items, 'a', 'right', false)?.[0]).toMatchObject({ x: 1, y: 0 });
    expect(nudge(items, 'a', 'left', false)).toBeNull();
    expect(nudge(items, 'a', 'right', true)?.[0]).toMatchObject({ w: 2 });
    const wide = nudge(items, 'a', 'right', true)!;
    expect(nudge(wide, 'a', 'right', true)).toBeNull(); // would cover b
    expect(nudge(items, 'a', 'down', true)?.[0]).toMatchObject({ h: 2 });
    expect(nudge(items, 'a', 'up', true)).toBeNull(); // no zero-height items
    expect(nudge([item('c', 0, 3)], 'c', 'down', false)).toBeNull(); // at most 4 rows
  });

  it('checks bounds and overlap, merges positions, and describes a place', () => {
    expect(fits([], { x: 2, y: 0, w: 2, h: 1 })).toBe(false);
    expect(fits([item('a', 0, 0, 2, 2)], { x: 1, y: 1, w: 1, h: 1 })).toBe(false);
    expect(fits([item('a', 0, 0, 2, 2)], { x: 1, y: 1, w: 1, h: 1 }, 'a')).toBe(true);
    const merged = withPositions([item('a', 0, 0)], [{ i: 'a', x: 1, y: 2, w: 2, h: 1 }]);
    expect(merged[0]).toMatchObject({ x: 1, y: 2, w: 2, h: 1, type: 'text' });
    expect(describePlace({ x: 0, y: 1, w: 2, h: 1 })).toBe('column 1, row 2, 2 columns wide, 1 row high');
  });
});
