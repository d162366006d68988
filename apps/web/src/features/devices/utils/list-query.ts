import {
  BATTERY_FILTERS,
  DATE_RANGES,
  DEVICE_PAGE_SIZES,
  DEVICE_PAGE_SIZE_DEFAULT,
  DEVICE_TYPES,
  type BatteryFilter,
  type DateRange,
} from '@fleet/shared/constants';
import { DEVICE_SORTS, FILTER_VALUES_MAX, SEEN_FILTERS, type SeenFilter } from '@fleet/shared/schemas/device';

export type DeviceSort = (typeof DEVICE_SORTS)[number];
export type SortOrder = 'asc' | 'desc';
export type PageSize = (typeof DEVICE_PAGE_SIZES)[number];

/** What the device list shows: page, page size, sort and every filter (core §2, §9). */
export interface DeviceListState {
  /** 1-based. */
  page: number;
  size: PageSize;
  sort: DeviceSort;
  order: SortOrder;
  search: string;
  /** Landlord only: one entity. */
  entity: string;
  /** The fields below take several values, meaning any of them (OR); none means no filter. */
  status: string[];
  battery: BatteryFilter[];
  fw_version: string[];
  /** Groups' names: the devices in them. */
  group: string[];
  /** Sites' and kiosks' names: the devices in their groups. */
  site: string[];
  kiosk: string[];
  type: DeviceType[];
  /** Online now, unresponsive (20 minutes) or never seen. */
  seen: SeenFilter[];
  /** Last seen within (after) or before a range back from now. */
  seen_after: DateRange | '';
  seen_before: DateRange | '';
  created: DateRange | '';
}

export type DeviceType = (typeof DEVICE_TYPES)[number];

/** The filters of the sidebar (and the search box): changing any of them starts at page 1. */
export type DeviceFilters = Omit<DeviceListState, 'page' | 'size' | 'sort' | 'order'>;

export const NO_FILTERS: DeviceFilters = {
  search: '',
  entity: '',
  status: [],
  battery: [],
  fw_version: [],
  group: [],
  site: [],
  kiosk: [],
  type: [],
  seen: [],
  seen_after: '',
  seen_before: '',
  created: '',
};

export const DEFAULT_LIST_STATE: DeviceListState = {
  page: 1,
  size: DEVICE_PAGE_SIZE_DEFAULT as PageSize,
  sort: 'created_at',
  order: 'desc',
  ...NO_FILTERS,
};

const FILTER_KEYS = Object.keys(NO_FILTERS) as (keyof DeviceFilters)[];
const MAX_TEXT = 100;
const MAX_NAME = 64;
const RANGES = Object.keys(DATE_RANGES) as DateRange[];

const oneOf = <T extends string>(choices: readonly T[], value: string | null): T | undefined =>
  choices.find((c) => c === value);

const text = (value: string | null, max = MAX_TEXT) => (value ?? '').trim().slice(0, max);

/** Every value of a repeated param (`status=A&status=B`), cleaned, once each, within the server's bounds. */
const texts = (params: URLSearchParams, key: string, max: number) =>
  [...new Set(params.getAll(key).map((v) => text(v, max)))].filter((v) => v !== '').slice(0, FILTER_VALUES_MAX);
const choices = <T extends string>(params: URLSearchParams, key: string, allowed: readonly T[]): T[] =>
  allowed.filter((c) => params.getAll(key).includes(c));

/**
 * Reads the list state from the URL's search params. Anything missing or not understood falls
 * back to the default, so a hand-edited or stale link still opens a working list.
 */
export function readListState(params: URLSearchParams): DeviceListState {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : DEFAULT_LIST_STATE.page,
    size: DEVICE_PAGE_SIZES.find((s) => s === size) ?? DEFAULT_LIST_STATE.size,
    sort: oneOf(DEVICE_SORTS, params.get('sort')) ?? DEFAULT_LIST_STATE.sort,
    order: oneOf(['asc', 'desc'] as const, params.get('order')) ?? DEFAULT_LIST_STATE.order,
    search: text(params.get('search')),
    entity: text(params.get('entity')),
    status: texts(params, 'status', 32),
    battery: choices(params, 'battery', BATTERY_FILTERS),
    fw_version: texts(params, 'fw_version', MAX_NAME),
    group: texts(params, 'group', MAX_NAME),
    site: texts(params, 'site', MAX_NAME),
    kiosk: texts(params, 'kiosk', MAX_NAME),
    type: choices(params, 'type', DEVICE_TYPES),
    seen: choices(params, 'seen', SEEN_FILTERS),
    seen_after: oneOf(RANGES, params.get('seen_after')) ?? '',
    seen_before: oneOf(RANGES, params.get('seen_before')) ?? '',
    created: oneOf(RANGES, params.get('created')) ?? '',
  };
}

const isSet = (value: string | number | readonly string[]) => (Array.isArray(value) ? value.length > 0 : value !== '');

/**
 * The URL search params for `state`; defaults are left out so a plain list has a plain URL.
 * A field with several values repeats its key (`status=A&status=B`); one value reads as before.
 */
export function writeListState(state: DeviceListState): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state) as [keyof DeviceListState, string | number | string[]][]) {
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else if (value !== DEFAULT_LIST_STATE[key] && value !== '') params.set(key, String(value));
  }
  return params;
}

/** True when any filter (search included) narrows the list. */
export function hasFilters(state: DeviceFilters): boolean {
  return FILTER_KEYS.some((key) => isSet(state[key]));
}

/** How many filter fields narrow the list, for the sidebar toggle's badge. */
export function countFilters(state: DeviceFilters): number {
  return FILTER_KEYS.filter((key) => isSet(state[key])).length;
}

/** `state` with some filters changed; the page goes back to 1, since the old page may no longer exist. */
export function withFilters(state: DeviceListState, patch: Partial<DeviceFilters>): DeviceListState {
  return { ...state, ...patch, page: 1 };
}

/**
 * The GET device query for `state`: one page, the sort and every filter set. The entity filter
 * only exists on the landlord's plain path.
 */
export function toApiQuery(state: DeviceListState, landlord: boolean): DeviceApiQuery {
  const query: DeviceApiQuery = {
    limit: state.size,
    offset: (state.page - 1) * state.size,
    sort: state.sort,
    order: state.order,
  };
  for (const key of FILTER_KEYS) {
    if (key === 'entity' && !landlord) continue;
    if (isSet(state[key])) query[key] = state[key];
  }
  return query;
}

/** The query of GET device (and, without the page, of its export): lists repeat their key. */
export type DeviceApiQuery = Record<string, string | number | readonly string[]>;

/** The export's query: the list's filters and sort, every page. */
export function toExportQuery(state: DeviceListState, landlord: boolean): DeviceApiQuery {
  const { limit: _limit, offset: _offset, ...rest } = toApiQuery(state, landlord);
  return { ...rest, format: 'csv' };
}

/** The last page that holds something for `total` devices (1 for an empty list). */
export function lastPage(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
