import { DATAVIEW_GRID, type DataviewWidget } from '@fleet/shared/constants';
import type { DataviewItem } from '@fleet/shared/schemas/dataview';

const { cols: COLS, maxRows: ROWS } = DATAVIEW_GRID;

type Box = Pick<DataviewItem, 'x' | 'y' | 'w' | 'h'>;

const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (b: Box) => b.x >= 0 && b.y >= 0 && b.w >= 1 && b.h >= 1 && b.x + b.w <= COLS && b.y + b.h <= ROWS;

/** True when `box` fits the 3 × 4 grid and overlaps no item but `except`. */
export function fits(items: readonly DataviewItem[], box: Box, except?: string): boolean {
  return inside(box) && items.every((it) => it.i === except || !overlaps(it, box));
}

/** The first free 1 × 1 cell, row by row, or null when the grid is full. */
export function freeCell(items: readonly DataviewItem[]): { x: number; y: number } | null {
  for (let y = 0; y < ROWS; y++) for (let x = 0; x < COLS; x++) if (fits(items, { x, y, w: 1, h: 1 })) return { x, y };
  return null;
}

/** A new palette item in the first free cell (null when full), with an id not yet used. */
export function placeNew(items: readonly DataviewItem[], type: DataviewWidget, title: string): DataviewItem | null {
  const cell = freeCell(items);
  if (!cell) return null;
  let n = items.length + 1;
  while (items.some((it) => it.i === `${type}_${n}`)) n++;
  return { i: `${type}_${n}`, type, ...cell, w: 1, h: 1, title, props: {} };
}

export type KeyAction = 'left' | 'right' | 'up' | 'down';
const STEP: Record<KeyAction, [number, number]> = { left: [-1, 0], right: [1, 0], up: [0, -1], down: [0, 1] };

/**
 * Keyboard editing: move an item one cell, or (resize) grow or shrink it by one from its
 * bottom-right corner. A change that leaves the grid or hits another item is refused (null).
 */
export function nudge(items: readonly DataviewItem[], id: string, key: KeyAction, resize: boolean) {
  const it = items.find((x) => x.i === id);
  if (!it) return null;
  const [dx, dy] = STEP[key];
  const box = resize
    ? { x: it.x, y: it.y, w: it.w + dx, h: it.h + dy }
    : { x: it.x + dx, y: it.y + dy, w: it.w, h: it.h };
  if (!fits(items, box, id)) return null;
  return items.map((x) => (x.i === id ? { ...x, ...box } : x));
}

/** Merges the grid library's positions into the items (only x, y, w, h come from it). */
export function withPositions(items: readonly DataviewItem[], layout: readonly (Box & { i: string })[]) {
  const byId = new Map(layout.map((l) => [l.i, l]));
  return items.map((it) => {
    const l = byId.get(it.i);
    return l ? { ...it, x: l.x, y: l.y, w: l.w, h: l.h } : it;
  });
}

/** A person's words for an item's place: "column 1, row 2, 2 columns wide, 1 row high". */
export function describePlace(it: Box): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `column ${it.x + 1}, row ${it.y + 1}, ${plural(it.w, 'column')} wide, ${plural(it.h, 'row')} high`;
}
