import { asc, count, eq } from 'drizzle-orm';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { presentAccount, type Scope } from './account-scope.ts';

/** The accounts of the scope, by name, one page of them (limit 0: all). */
export async function listAccounts(db: Db, scope: Scope, page: PageQuery) {
  const where = scope === null ? undefined : eq(accounts.entity, scope);
  const query = db.select().from(accounts).where(where).orderBy(asc(accounts.name)).offset(page.offset);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    page.limit > 0 ? query.limit(page.limit) : query,
    db.select({ total: count() }).from(accounts).where(where),
  ]);
  return { data: rows.map(presentAccount), total };
}
