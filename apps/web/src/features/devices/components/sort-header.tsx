import type { DeviceSort, SortOrder } from '../utils/list-query.ts';

/** The order a column starts in: newest, fullest or latest first; names and versions A to Z. */
export function firstOrder(column: DeviceSort): SortOrder {
  return column === 'name' || column === 'fw_version' || column === 'state' ? 'asc' : 'desc';
}
