import { useState } from 'react';
import type { DataviewWidget } from '@fleet/shared/constants';
import type { DataviewItem, DataviewWithContent } from '@fleet/shared/schemas/dataview';
import { nudge, placeNew, withPositions, type KeyAction } from './builder-layout.ts';
import { WIDGETS } from './widgets.tsx';

/** The builder's working copy of a dataview's items, and whether it differs from what is saved. */
export function useBuilder(dataview: DataviewWithContent) {
  const saved = dataview.content.layout.items;
  const [items, setItems] = useState<DataviewItem[]>(saved);
  const [notice, setNotice] = useState('');
  const dirty = JSON.stringify(items) !== JSON.stringify(saved);
  const update = (id: string, change: Partial<DataviewItem>) =>
    setItems((all) => all.map((it) => (it.i === id ? { ...it, ...change } : it)));
  return {
    items,
    dirty,
    /** What the last keyboard or palette action did, for a polite live region. */
    notice,
    full: placeNew(items, 'text', '') === null,
    add(type: DataviewWidget) {
      const next = placeNew(items, type, WIDGETS[type].label);
      if (!next) return;
      setItems([...items, next]);
      setNotice(`${WIDGETS[type].label} added at column ${next.x + 1}, row ${next.y + 1}`);
    },
    remove(id: string) {
      setItems(items.filter((it) => it.i !== id));
      setNotice('Item removed');
    },
    title: (id: string, title: string) => update(id, { title }),
    positions: (layout: readonly Pick<DataviewItem, 'i' | 'x' | 'y' | 'w' | 'h'>[]) =>
      setItems((all) => withPositions(all, layout)),
    nudge(id: string, key: KeyAction, resize: boolean) {
      const next = nudge(items, id, key, resize);
      if (next) setItems(next);
      setNotice(next ? (resize ? 'Resized' : 'Moved') : 'There is no room there');
    },
    reset: () => setItems(saved),
  };
}
