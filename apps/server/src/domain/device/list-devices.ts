import { eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { DeviceListQuery } from '@fleet/shared/schemas/device';
import { keepsVisibilityMap, type Db } from '../../db/client.ts';
import { devices, groups, kiosks, sites } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { countDevices } from './count-devices.ts';
import { deviceFilter, deviceOrdering } from './device-filter.ts';
import { presentDevice } from './device-scope.ts';

/**
 * One page of devices, filtered and sorted by the database, with the filter's exact count
 * (countDevices: from the kept counts where it can). Pages past the middle are read
 * from the other end (reversed order, smaller offset), so the last page costs what the first does.
 */
export async function listDevices(db: Db, scope: Scope, q: DeviceListQuery) {
  const now = Date.now();
  const where = deviceFilter(scope, q, now);
  const total = await countDevices(db, scope, q, where, now);
  if (q.offset >= total) return { data: [], total };
  const limit = Math.min(q.limit, total - q.offset);
  const fromEnd = q.offset > total / 2;
  const offset = fromEnd ? total - q.offset - limit : q.offset;
  // With nothing to skip, the join would only add work.
  const deferred = offset > 0 && keepsVisibilityMap(db);
  const rows = await pageQuery(db, where, q, { offset, limit, reverse: fromEnd }, deferred);
  if (fromEnd) rows.reverse();
  return { data: rows.map(presentDevice), total };
}

/**
 * The rows of one page in `deviceOrdering(q, reverse)`. `deferred`: the ids walked past the
 * offset are read first, from the sort's index alone where it holds the filter's columns, then
 * only the page's rows whole (a deferred join), so a row skipped costs an index entry, not a row.
 * That pays only where the visibility map lets the index-only scan skip the table (PostgreSQL);
 * on PGlite it fetches every row's page anyway and the join is extra (bench/notes/fleet-million.md).
 */
export function pageQuery(
  db: Db,
  where: SQL | undefined,
  q: DeviceListQuery,
  page: { offset: number; limit: number; reverse: boolean },
  deferred: boolean,
) {
  const { offset, limit, reverse } = page;
  const order = deviceOrdering(q, reverse);
  if (!deferred)
    return db
      .select()
      .from(devices)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
  const ids = db
    .select({ id: sql<string>`${devices.name}`.as('id') })
    .from(devices)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)
    .as('page');
  return db
    .select(getTableColumns(devices))
    .from(ids)
    .innerJoin(devices, eq(devices.name, ids.id))
    .orderBy(...order);
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
      .orderBy(...deviceOrdering(q))
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
  // Names are unique in an entity; the landlord's list merges equal names of several entities.
  const named = (table: typeof groups | typeof sites | typeof kiosks) =>
    db
      .selectDistinct({ v: table.name })
      .from(table)
      .where(scope === null ? undefined : eq(table.entity, scope))
      .orderBy(table.name);
  const [fw, states, ents, grps, sts, kss] = await Promise.all([
    db.selectDistinct({ v: devices.fw_version }).from(devices).where(where).orderBy(devices.fw_version),
    db.selectDistinct({ v: devices.state_current }).from(devices).where(where).orderBy(devices.state_current),
    db.selectDistinct({ v: devices.entity }).from(devices).where(where).orderBy(devices.entity),
    // The scope's groups, sites and kiosks from their own tables: a distinct over 100,000 devices cost 100 ms more.
    named(groups),
    named(sites),
    named(kiosks),
  ]);
  const values = (rows: { v: string | null }[]) => rows.flatMap((r) => (r.v === null ? [] : [r.v]));
  return {
    fw_versions: values(fw),
    states: values(states),
    entities: scope === null ? values(ents) : [],
    groups: values(grps),
    sites: values(sts),
    kiosks: values(kss),
  };
}
