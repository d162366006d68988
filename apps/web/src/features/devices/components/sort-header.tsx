import type { DeviceSort, SortOrder } from '../utils/list-query.ts';

/** The order a column starts in: newest, fullest or latest first; names, groups, entities and versions A to Z. */
export function firstOrder(column: DeviceSort): SortOrder {
  return ['name', 'group', 'entity', 'fw_version', 'state'].includes(column) ? 'asc' : 'desc';
}
