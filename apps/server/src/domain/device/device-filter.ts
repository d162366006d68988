import { and, eq, type AnyColumn, gt, gte, inArray, isNotNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { DATE_RANGES, UNRESPONSIVE_AFTER_MS, type BatteryFilter } from '@fleet/shared/constants';
import type { DeviceFilterQuery, DeviceListQuery, SeenFilter } from '@fleet/shared/schemas/device';
import { deviceSearch, devices, groups, kiosks } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';

const SORT_COLUMNS = {
  name: devices.name,
  group: devices.group,
  entity: devices.entity,
  fw_version: devices.fw_version,
  state: devices.state_current,
  created_at: devices.created_at,
  updated_at: devices.updated_at,
  battery: devices.battery,
} as const;

/** LIKE patterns treat % and _ as wildcards; a search for them means the characters. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const BATTERY: Record<BatteryFilter, SQL | undefined> = {
  High: gt(devices.battery, 75),
  Medium: and(gt(devices.battery, 50), lte(devices.battery, 75)),
  Low: lte(devices.battery, 50),
  // Charging is a battery's state: mains-powered devices (beacon gateways) say they charge but have none.
  Charging: and(eq(devices.is_charging, true), isNotNull(devices.battery)),
};

/** `seen=`: the shared rules of core §4 (20 minutes) and of a device never heard from. */
const seenRule = (seen: SeenFilter, now: number): SQL | undefined => {
  if (seen === 'online') return eq(devices.online, true);
  if (seen === 'unresponsive') return lt(devices.updated_at, new Date(now - UNRESPONSIVE_AFTER_MS));
  // A last sign of life still equal to the registration (docs/decisions/2026-11-22-device-last-seen.md).
  return sql`${devices.updated_at} = ${devices.created_at}`;
};

/** An instant of `seen_after`/`seen_before`: a range key counts back from now. */
const instant = (v: string, now: number) =>
  v in DATE_RANGES ? new Date(now - DATE_RANGES[v as keyof typeof DATE_RANGES].hours * 3_600_000) : new Date(v);

/** One field's values OR'ed; no values, no condition. */
const anyOf = <T>(values: readonly T[], rule: (v: T) => SQL | undefined) =>
  values.length === 0 ? undefined : or(...values.map(rule));

/**
 * The groups of the device's own entity placed at one of `sites` (directly, or through their kiosk),
 * or at one of `kiosks`: the correlation on the device's entity keeps every name inside it.
 */
function placedIn(column: 'site' | 'kiosk', names: string[]): SQL | undefined {
  if (names.length === 0) return undefined;
  const viaKiosk =
    column === 'site'
      ? sql` or ${groups.kiosk} in (select ${kiosks.name} from ${kiosks}
            where ${kiosks.entity} = ${groups.entity} and ${inArray(kiosks.site, names)})`
      : sql``;
  return sql`${devices.group} in (select ${groups.name} from ${groups}
    where ${groups.entity} = ${devices.entity} and (${inArray(groups[column], names)}${viaKiosk}))`;
}

/**
 * The WHERE of a device list or export: the scope, then every filter of the sidebar. Fields AND
 * together; the values of one field OR. Everything happens in the database.
 */
export function deviceFilter(scope: Scope, q: DeviceFilterQuery, now = Date.now()): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (scope !== null) where.push(eq(devices.entity, scope));
  else if (q.entity) where.push(eq(devices.entity, q.entity));
  if (q.status.length > 0) where.push(inArray(devices.state_current, q.status));
  if (q.fw_version.length > 0) where.push(inArray(devices.fw_version, q.fw_version));
  if (q.group.length > 0) where.push(inArray(devices.group, q.group));
  if (q.type.length > 0) where.push(inArray(devices.manufacturing_type, q.type));
  where.push(placedIn('site', q.site), placedIn('kiosk', q.kiosk));
  where.push(anyOf(q.battery, (b) => BATTERY[b]));
  where.push(anyOf(q.seen, (s) => seenRule(s, now)));
  if (q.seen_after) where.push(gte(devices.updated_at, instant(q.seen_after, now)));
  if (q.seen_before) where.push(lt(devices.updated_at, instant(q.seen_before, now)));
  if (q.created) where.push(gte(devices.created_at, new Date(now - DATE_RANGES[q.created].hours * 3_600_000)));
  if (q.search) where.push(searchFor(q.search, scope ?? q.entity));
  return and(...where);
}

/**
 * The devices whose id or description holds `text`, case-blind, read from device_search (migration
 * 0032) with the entity, when there is one, as a key of its trigram indexes: lower(…) like lower(…)
 * is the match those indexes on lower(…) serve.
 */
function searchFor(text: string, entity: string | undefined): SQL {
  const pattern = `%${escapeLike(text)}%`;
  const s = deviceSearch;
  return sql`${devices.name} in (select ${s.name} from ${s} where ${and(
    entity ? eq(s.entity, entity) : undefined,
    or(sql`lower(${s.name}) like lower(${pattern})`, sql`lower(${s.description}) like lower(${pattern})`),
  )})`;
}

/**
 * ORDER BY the chosen column with the id (unique) as tie-breaker, so every row has one place
 * and pages neither repeat nor skip; `reverse` flips both, nulls included.
 */
export function deviceOrdering(q: Pick<DeviceListQuery, 'sort' | 'order'>, reverse = false): SQL[] {
  const column = SORT_COLUMNS[q.sort];
  const descending = (q.order === 'desc') !== reverse;
  // Nulls always sort last in the answer, so a reversed query puts them first.
  const nulls = sql.raw(reverse ? 'nulls first' : 'nulls last');
  const by = (c: AnyColumn) => (descending ? sql`${c} desc ${nulls}` : sql`${c} asc ${nulls}`);
  return column === devices.name ? [by(column)] : [by(column), by(devices.name)];
}

/** The columns the keyset walks (`sort` value, id) for the row after which the next batch starts. */
export const sortColumn = (q: Pick<DeviceListQuery, 'sort'>) => SORT_COLUMNS[q.sort];
