import { and, asc, count, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { DataviewFacets, DataviewListQuery } from '@fleet/shared/schemas/dataview';
import type { Db } from '../../db/client.ts';
import { dataviews } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { authorisedNames, presentDataview, visibleTo } from './dataview-scope.ts';

/** The WHERE of a dataview list: scope, what the actor may see, and the sidebar's checkboxes. */
function dataviewFilter(actor: AccessClaims, scope: Scope, q: Omit<DataviewListQuery, 'limit' | 'offset'>) {
  const where: (SQL | undefined)[] = [visibleTo(actor)];
  if (scope !== null) where.push(eq(dataviews.entity, scope));
  else if (q.entity.length > 0) where.push(inArray(dataviews.entity, q.entity));
  if (q.owner.length > 0) where.push(inArray(dataviews.owner, q.owner));
  if (q.version.length > 0) where.push(inArray(dataviews.version, q.version));
  return and(...where);
}

/**
 * One page of dataviews (limit 0: all of them, the landlord's full load), filtered, ordered by
 * entity and name, and counted by the database. Content is not part of a list.
 */
export async function listDataviews(db: Db, actor: AccessClaims, scope: Scope, q: DataviewListQuery) {
  const where = dataviewFilter(actor, scope, q);
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(dataviews).where(where);
  if (q.offset >= total) return { data: [], total };
  const query = db
    .select({
      entity: dataviews.entity,
      name: dataviews.name,
      description: dataviews.description,
      version: dataviews.version,
      owner: dataviews.owner,
      created_at: dataviews.created_at,
      updated_at: dataviews.updated_at,
      authorized_accounts: authorisedNames,
    })
    .from(dataviews)
    .where(where)
    .orderBy(asc(dataviews.entity), asc(dataviews.name))
    .offset(q.offset);
  const rows = q.limit > 0 ? await query.limit(q.limit) : await query;
  return { data: rows.map((r) => presentDataview(r, r.authorized_accounts)), total };
}

/** The entities, owners and versions the landlord's filter sidebar offers. */
export async function dataviewFacets(db: Db): Promise<DataviewFacets> {
  const [ents, owners, versions] = await Promise.all([
    db.selectDistinct({ v: dataviews.entity }).from(dataviews).orderBy(dataviews.entity),
    db
      .selectDistinct({ v: dataviews.owner })
      .from(dataviews)
      .where(isNotNull(dataviews.owner))
      .orderBy(dataviews.owner),
    db.selectDistinct({ v: dataviews.version }).from(dataviews).orderBy(dataviews.version),
  ]);
  const values = (rows: { v: string | null }[]) => rows.flatMap((r) => (r.v === null ? [] : [r.v]));
  return { entities: values(ents), owners: values(owners), versions: values(versions) };
}
