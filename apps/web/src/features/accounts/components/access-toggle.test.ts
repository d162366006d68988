import { describe, expect, it } from 'vitest';
import { toggleAccess } from './access-toggle.ts';

describe('toggleAccess', () => {
  it('All Access clears the individual permissions and sets access to all', () => {
    expect(toggleAccess(['Site_read', 'Group_all'], 'all', true)).toEqual(['all']);
  });

  it('unticking All Access leaves nothing', () => {
    expect(toggleAccess(['all'], 'all', false)).toEqual([]);
  });

  it('ticking an individual permission unticks All Access', () => {
    expect(toggleAccess(['all'], 'Dataview_read', true)).toEqual(['Dataview_read']);
  });

  it('adds and removes individual permissions, keeping the spec order', () => {
    const ticked = toggleAccess(toggleAccess([], 'Group_all', true), 'Dataview_read', true);
    expect(ticked).toEqual(['Dataview_read', 'Group_all']);
    expect(toggleAccess(ticked, 'Group_all', false)).toEqual(['Dataview_read']);
  });

  it('ticking an already ticked permission does not duplicate it', () => {
    expect(toggleAccess(['Site_read'], 'Site_read', true)).toEqual(['Site_read']);
  });
});
