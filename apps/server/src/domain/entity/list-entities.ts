import { asc, count, eq } from 'drizzle-orm';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { Db } from '../../db/client.ts';
import { entities } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { presentEntity } from './present-entity.ts';

/** Entities by name, one page of them (limit 0: all). */
export async function listEntities(db: Db, page: PageQuery) {
  const query = db.select().from(entities).orderBy(asc(entities.name)).offset(page.offset);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    page.limit > 0 ? query.limit(page.limit) : query,
    db.select({ total: count() }).from(entities),
  ]);
  return { data: rows.map(presentEntity), total };
}

/** One entity, or 404. */
export async function getEntity(db: Db, name: string) {
  const [row] = await db.select().from(entities).where(eq(entities.name, name));
  if (!row) throw notFound('Entity');
  return presentEntity(row);
}
