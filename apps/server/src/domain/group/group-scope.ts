import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Group } from '@fleet/shared/schemas/group';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { groups } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { presentLocation } from '../org/location.ts';
import { assertMayRead } from '../org/org-access.ts';

export type GroupRow = typeof groups.$inferSelect;

/** How many devices are in the group now (served by devices_entity_group_idx). */
// Qualified by hand: Drizzle leaves columns unqualified in one-table queries, and inside the
// subquery a bare "entity" would be the device's own.
const deviceCount = sql<number>`(select count(*)::int from devices d where d.entity = "groups"."entity" and d."group" = "groups"."name")`;

/** What the API shows of a group: never its certificate's text. */
export function presentGroup(row: GroupRow, devices: number): Group {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    capacity: row.capacity,
    kiosk: row.kiosk,
    location: presentLocation(row),
    configuration: row.configuration,
    networkinfo: row.networkinfo,
    globalinfo: row.globalinfo,
    allocinfo: row.allocinfo,
    unallocinfo: row.unallocinfo,
    has_certificate: row.x509_certificate !== null,
    state: { current: row.state_current },
    devices,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The entity's group of that name with its device count, or 404. */
export async function findGroup(db: Executor, entity: string, name: string) {
  const [found] = await db
    .select({ row: groups, devices: deviceCount })
    .from(groups)
    .where(and(eq(groups.entity, entity), eq(groups.name, name)))
    .limit(1);
  if (!found) throw notFound('Group');
  return found;
}

/** The entity's groups by name, each with its device count. */
export async function listGroups(db: Executor, actor: AccessClaims, entity: string, page: PageQuery) {
  assertMayRead(actor, 'Group');
  const where = eq(groups.entity, entity);
  const query = db
    .select({ row: groups, devices: deviceCount })
    .from(groups)
    .where(where)
    .orderBy(asc(groups.name))
    .offset(page.offset);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    page.limit > 0 ? query.limit(page.limit) : query,
    db.select({ total: count() }).from(groups).where(where),
  ]);
  return { data: rows.map((r) => presentGroup(r.row, r.devices)), total };
}

/** One group of the entity. */
export async function getGroup(db: Executor, actor: AccessClaims, entity: string, name: string) {
  assertMayRead(actor, 'Group');
  const found = await findGroup(db, entity, name);
  return presentGroup(found.row, found.devices);
}
