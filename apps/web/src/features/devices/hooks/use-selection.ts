import { useCallback, useState } from 'react';

/**
 * The device names ticked for a Multi-Device Action. It survives refreshes and paging (the
 * header checkbox ticks the page); the list clears it when the filters change.
 */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (name: string, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(name);
        else next.delete(name);
        return next;
      }),
    [],
  );
  const setMany = useCallback(
    (names: readonly string[], on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        for (const name of names) {
          if (on) next.add(name);
          else next.delete(name);
        }
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, toggle, setMany, clear };
}
