import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_STATE,
  countFilters,
  hasFilters,
  lastPage,
  readListState,
  toApiQuery,
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
  status: 'ERROR',
  battery: 'Charging',
  fw_version: '1.2.0',
  group: 'Lobby_1',
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
    const params = writeListState({ ...DEFAULT_LIST_STATE, page: 2, size: 10, status: 'DFU' });
    expect(params.toString()).toBe('page=2&size=10&status=DFU');
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
      status: 'ERROR',
      battery: 'Charging',
      fw_version: '1.2.0',
      group: 'Lobby_1',
      created: '1w',
    });
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
    expect(withFilters({ ...FULL, page: 7 }, { status: '' })).toMatchObject({
      page: 1,
      status: '',
      battery: 'Charging',
    });
  });

  it('are counted for the sidebar toggle', () => {
    expect(hasFilters(DEFAULT_LIST_STATE)).toBe(false);
    expect(countFilters(FULL)).toBe(7);
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
