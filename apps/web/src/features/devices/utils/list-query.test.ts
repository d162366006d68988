import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_STATE,
  countFilters,
  hasFilters,
  lastPage,
  readListState,
  toApiQuery,
  toExportQuery,
  withFilters,
  writeListState,
  type DeviceListState,
} from './list-query.ts';

const FULL: DeviceListState = {
  page: 3,
  size: 50,
  sort: 'battery',
  order: 'asc',
  search: 'lobby',
  entity: 'acme',
  status: ['ERROR', 'WAITING'],
  battery: ['Charging'],
  fw_version: ['1.2.0'],
  group: ['Lobby_1', 'Lobby_2'],
  site: ['North'],
  kiosk: ['K_1', 'K_2'],
  type: ['CC2'],
  seen: ['online', 'never'],
  seen_after: '30d',
  seen_before: '24h',
  created: '1w',
};

describe('list state in the URL', () => {
  it('survives a round trip through the search params', () => {
    const params = writeListState(FULL);
    expect(readListState(new URLSearchParams(params.toString()))).toEqual(FULL);
  });

  it('gives a plain URL for the default list and reads an empty URL as the default', () => {
    expect(writeListState(DEFAULT_LIST_STATE).toString()).toBe('');
    expect(readListState(new URLSearchParams())).toEqual(DEFAULT_LIST_STATE);
  });

  it('writes only what differs from the default', () => {
    const params = writeListState({ ...DEFAULT_LIST_STATE, page: 2, size: 10, status: ['DFU'] });
    expect(params.toString()).toBe('page=2&size=10&status=DFU');
  });

  it('repeats the key of a field with several values, and reads them back (OR)', () => {
    const params = writeListState({ ...DEFAULT_LIST_STATE, status: ['ERROR', 'DFU'], seen: ['unresponsive'] });
    expect(params.toString()).toBe('status=ERROR&status=DFU&seen=unresponsive');
    expect(readListState(params)).toMatchObject({ status: ['ERROR', 'DFU'], seen: ['unresponsive'] });
  });

  it('still reads the single-value links made before several values were allowed', () => {
    const state = readListState(
      new URLSearchParams('status=ERROR&battery=Low&fw_version=1.2.0&group=Lobby_1&type=CC1&seen=never'),
    );
    expect(state).toMatchObject({
      status: ['ERROR'],
      battery: ['Low'],
      fw_version: ['1.2.0'],
      group: ['Lobby_1'],
      type: ['CC1'],
      seen: ['never'],
    });
  });

  it('drops unknown choices, blanks and repeats, and keeps at most the server’s number of values', () => {
    const many = Array.from({ length: 60 }, (_, i) => `status=S${i}`).join('&');
    const state = readListState(
      new URLSearchParams(`battery=Full&battery=Low&type=CC9&seen=sometimes&group=&group=a&group=a&${many}`),
    );
    expect(state.battery).toEqual(['Low']);
    expect(state.type).toEqual([]);
    expect(state.seen).toEqual([]);
    expect(state.group).toEqual(['a']);
    expect(state.status).toHaveLength(50);
  });

  it('falls back to the default for values it does not understand', () => {
    const state = readListState(
      new URLSearchParams('page=-4&size=33&sort=password&order=up&battery=Full&created=2y&search=%20x%20'),
    );
    expect(state).toEqual({ ...DEFAULT_LIST_STATE, search: 'x' });
    expect(readListState(new URLSearchParams('page=2.5')).page).toBe(1);
  });
});

describe('toApiQuery', () => {
  it('turns page and size into limit and offset and passes every filter', () => {
    expect(toApiQuery(FULL, true)).toEqual({
      limit: 50,
      offset: 100,
      sort: 'battery',
      order: 'asc',
      search: 'lobby',
      entity: 'acme',
      status: ['ERROR', 'WAITING'],
      battery: ['Charging'],
      fw_version: ['1.2.0'],
      group: ['Lobby_1', 'Lobby_2'],
      site: ['North'],
      kiosk: ['K_1', 'K_2'],
      type: ['CC2'],
      seen: ['online', 'never'],
      seen_after: '30d',
      seen_before: '24h',
      created: '1w',
    });
  });

  it('gives the export the same filters and sort, without the page', () => {
    const query = toExportQuery(
      { ...DEFAULT_LIST_STATE, page: 4, sort: 'updated_at', order: 'asc', seen: ['never'] },
      false,
    );
    expect(query).toEqual({ sort: 'updated_at', order: 'asc', seen: ['never'], format: 'csv' });
  });

  it('leaves out empty filters, and the entity filter on the tenant path', () => {
    expect(toApiQuery({ ...DEFAULT_LIST_STATE, entity: 'acme' }, false)).toEqual({
      limit: 20,
      offset: 0,
      sort: 'created_at',
      order: 'desc',
    });
  });
});

describe('filters', () => {
  it('go back to page 1 when one changes', () => {
    expect(withFilters({ ...FULL, page: 7 }, { status: [] })).toMatchObject({
      page: 1,
      status: [],
      battery: ['Charging'],
    });
  });

  it('are counted for the sidebar toggle', () => {
    expect(hasFilters(DEFAULT_LIST_STATE)).toBe(false);
    expect(countFilters(FULL)).toBe(13);
    expect(hasFilters({ ...DEFAULT_LIST_STATE, search: 'a' })).toBe(true);
  });
});

describe('lastPage', () => {
  it('is at least 1 and rounds up', () => {
    expect(lastPage(0, 20)).toBe(1);
    expect(lastPage(20, 20)).toBe(1);
    expect(lastPage(21, 20)).toBe(2);
  });
});
