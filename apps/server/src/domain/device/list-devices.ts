import { and, count, eq, gt, gte, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { DATE_RANGES } from '@fleet/shared/constants';
import type { DeviceListQuery } from '@fleet/shared/schemas/device';
import type { Db } from '../../db/client.ts';
import { devices, groups } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { presentDevice } from './device-scope.ts';

const SORT_COLUMNS = {
  name: devices.name,
  created_at: devices.created_at,
  updated_at: devices.updated_at,
  battery: devices.battery,
  fw_version: devices.fw_version,
  state: devices.state_current,
} as const;

/** LIKE patterns treat % and _ as wildcards; a search for them means the characters. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE of a device list: scope plus every filter of the sidebar, all in the database. */
export function deviceFilter(
  scope: Scope,
  q: Omit<DeviceListQuery, 'limit' | 'offset' | 'sort' | 'order'>,
): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (scope !== null) where.push(eq(devices.entity, scope));
  else if (q.entity) where.push(eq(devices.entity, q.entity));
  if (q.status) where.push(eq(devices.state_current, q.status));
  if (q.fw_version) where.push(eq(devices.fw_version, q.fw_version));
  if (q.group) where.push(eq(devices.group, q.group));
  if (q.battery === 'High') where.push(gt(devices.battery, 75));
  if (q.battery === 'Medium') where.push(and(gt(devices.battery, 50), lte(devices.battery, 75)));
  if (q.battery === 'Low') where.push(lte(devices.battery, 50));
  // Charging is a battery's state: mains-powered devices (beacon gateways) say they charge but have none.
  if (q.battery === 'Charging') where.push(and(eq(devices.is_charging, true), isNotNull(devices.battery)));
  if (q.created) where.push(gte(devices.created_at, new Date(Date.now() - DATE_RANGES[q.created].hours * 3_600_000)));
  if (q.search) {
    // lower(…) like lower(…): the case-blind match the trigram indexes on lower(…) serve.
    const pattern = `%${escapeLike(q.search)}%`;
    where.push(
      or(sql`lower(${devices.name}) like lower(${pattern})`, sql`lower(${devices.description}) like lower(${pattern})`),
    );
  }
  return and(...where);
}

/** ORDER BY the chosen column with the id as tie-breaker; `reverse` flips both, nulls included. */
function ordering(q: Pick<DeviceListQuery, 'sort' | 'order'>, reverse = false): SQL[] {
  const column = SORT_COLUMNS[q.sort];
  const descending = (q.order === 'desc') !== reverse;
  // Nulls always sort last in the answer, so a reversed query puts them first. The indexes are
  // built `desc nulls last` (Drizzle's default), which these clauses match in both directions.
  const nulls = sql.raw(reverse ? 'nulls first' : 'nulls last');
  return [
    descending ? sql`${column} desc ${nulls}` : sql`${column} asc ${nulls}`,
    descending ? sql`${devices.name} desc ${nulls}` : sql`${devices.name} asc ${nulls}`,
  ];
}

/**
 * One page of devices, filtered and sorted by the database. Pages past the middle are read
 * from the other end (reversed order, smaller offset), so the last page costs what the first does.
 */
export async function listDevices(db: Db, scope: Scope, q: DeviceListQuery) {
  const where = deviceFilter(scope, q);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(devices).where(where);
  if (q.offset >= total) return { data: [], total };
  const limit = Math.min(q.limit, total - q.offset);
  const fromEnd = q.offset > total / 2;
  const offset = fromEnd ? total - q.offset - limit : q.offset;
  const rows = await db
    .select()
    .from(devices)
    .where(where)
    .orderBy(...ordering(q, fromEnd))
    .limit(limit)
    .offset(offset);
  if (fromEnd) rows.reverse();
  return { data: rows.map(presentDevice), total };
}

/**
 * Every matching device (limit 0), streamed: the ordered ids are read first, then the rows in
 * batches, so neither the server nor the answer holds the whole fleet at once.
 */
export async function* streamDevices(db: Db, scope: Scope, q: DeviceListQuery, batch = 500): AsyncGenerator<string> {
  const where = deviceFilter(scope, q);
  const ids = (
    await db
      .select({ name: devices.name })
      .from(devices)
      .where(where)
      .orderBy(...ordering(q))
  ).map((r) => r.name);
  yield '{"data":[';
  let first = true;
  for (let i = 0; i < ids.length; i += batch) {
    const slice = ids.slice(i, i + batch);
    const rows = await db.select().from(devices).where(inArray(devices.name, slice));
    const byName = new Map(rows.map((r) => [r.name, r]));
    // A device deleted between the two reads is skipped; order follows the id list.
    const parts = slice.flatMap((n) => {
      const row = byName.get(n);
      return row ? [JSON.stringify(presentDevice(row))] : [];
    });
    if (parts.length === 0) continue;
    yield (first ? '' : ',') + parts.join(',');
    first = false;
  }
  yield `],"total":${ids.length}}`;
}

/** The values the filter sidebar offers for the scope. */
export async function deviceFacets(db: Db, scope: Scope) {
  const where = scope === null ? undefined : eq(devices.entity, scope);
  const [fw, states, ents, grps] = await Promise.all([
    db.selectDistinct({ v: devices.fw_version }).from(devices).where(where).orderBy(devices.fw_version),
    db.selectDistinct({ v: devices.state_current }).from(devices).where(where).orderBy(devices.state_current),
    db.selectDistinct({ v: devices.entity }).from(devices).where(where).orderBy(devices.entity),
    // The scope's groups from their own table: a distinct over 100,000 devices cost 100 ms more.
    db
      .selectDistinct({ v: groups.name })
      .from(groups)
      .where(scope === null ? undefined : eq(groups.entity, scope))
      .orderBy(groups.name),
  ]);
  const values = (rows: { v: string | null }[]) => rows.flatMap((r) => (r.v === null ? [] : [r.v]));
  return {
    fw_versions: values(fw),
    states: values(states),
    entities: scope === null ? values(ents) : [],
    groups: values(grps),
  };
}
