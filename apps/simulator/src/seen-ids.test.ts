import { describe, expect, it } from 'vitest';
import { SeenIds } from './seen-ids.ts';

describe('seen command ids', () => {
  it('accepts an id once', () => {
    const seen = new SeenIds();
    expect(seen.remember('a')).toBe(true);
    expect(seen.remember('a')).toBe(false);
  });

  it('stays bounded, forgetting the least recently seen id first', () => {
    const seen = new SeenIds(3);
    for (const id of ['a', 'b', 'c']) seen.remember(id);
    seen.remember('a'); // seen again: now the most recent
    seen.remember('d'); // over capacity: forgets b
    expect(seen.size).toBe(3);
    expect(seen.remember('a')).toBe(false);
    expect(seen.remember('b')).toBe(true);
  });
});
