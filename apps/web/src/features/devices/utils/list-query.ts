import {
  BATTERY_FILTERS,
  DATE_RANGES,
  DEVICE_PAGE_SIZES,
  DEVICE_PAGE_SIZE_DEFAULT,
  type BatteryFilter,
  type DateRange,
} from '@fleet/shared/constants';
import { DEVICE_SORTS } from '@fleet/shared/schemas/device';

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
  status: string;
  battery: BatteryFilter | '';
  fw_version: string;
  /** A group's name: the devices in it. */
  group: string;
  created: DateRange | '';
}

/** The filters of the sidebar (and the search box): changing any of them starts at page 1. */
export type DeviceFilters = Pick<
  DeviceListState,
  'search' | 'entity' | 'status' | 'battery' | 'fw_version' | 'group' | 'created'
>;

export const DEFAULT_LIST_STATE: DeviceListState = {
  page: 1,
  size: DEVICE_PAGE_SIZE_DEFAULT as PageSize,
  sort: 'created_at',
  order: 'desc',
  search: '',
  entity: '',
  status: '',
  battery: '',
  fw_version: '',
  group: '',
  created: '',
};

export const NO_FILTERS: DeviceFilters = {
  search: '',
  entity: '',
  status: '',
  battery: '',
  fw_version: '',
  group: '',
  created: '',
};

const FILTER_KEYS = Object.keys(NO_FILTERS) as (keyof DeviceFilters)[];
const MAX_TEXT = 100;

const oneOf = <T extends string>(choices: readonly T[], value: string | null): T | undefined =>
  choices.find((c) => c === value);

const text = (value: string | null) => (value ?? '').trim().slice(0, MAX_TEXT);

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
    status: text(params.get('status')),
    battery: oneOf(BATTERY_FILTERS, params.get('battery')) ?? '',
    fw_version: text(params.get('fw_version')),
    group: text(params.get('group')),
    created: oneOf(Object.keys(DATE_RANGES) as DateRange[], params.get('created')) ?? '',
  };
}

/** The URL search params for `state`; defaults are left out so a plain list has a plain URL. */
export function writeListState(state: DeviceListState): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state) as [keyof DeviceListState, string | number][]) {
    if (value !== DEFAULT_LIST_STATE[key] && value !== '') params.set(key, String(value));
  }
  return params;
}

/** True when any filter (search included) narrows the list. */
export function hasFilters(state: DeviceFilters): boolean {
  return FILTER_KEYS.some((key) => state[key] !== '');
}

/** How many filters narrow the list, for the sidebar toggle's badge. */
export function countFilters(state: DeviceFilters): number {
  return FILTER_KEYS.filter((key) => state[key] !== '').length;
}

/** `state` with some filters changed; the page goes back to 1, since the old page may no longer exist. */
export function withFilters(state: DeviceListState, patch: Partial<DeviceFilters>): DeviceListState {
  return { ...state, ...patch, page: 1 };
}

/**
 * The GET device query for `state`: one page, the sort and every filter set. The entity filter
 * only exists on the landlord's plain path.
 */
export function toApiQuery(state: DeviceListState, landlord: boolean): Record<string, string | number> {
  const query: Record<string, string | number> = {
    limit: state.size,
    offset: (state.page - 1) * state.size,
    sort: state.sort,
    order: state.order,
  };
  for (const key of FILTER_KEYS) {
    if (key === 'entity' && !landlord) continue;
    if (state[key] !== '') query[key] = state[key];
  }
  return query;
}

/** The last page that holds something for `total` devices (1 for an empty list). */
export function lastPage(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}
