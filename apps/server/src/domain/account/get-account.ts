import { eq } from 'drizzle-orm';
import type { CurrentAccount } from '@fleet/shared/schemas/account';
import { accounts, entities } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-error.ts';

/**
 * An account by name with its entity's name and description. With `entity` set, an account of
 * another entity answers 404 exactly as a missing one does.
 */
export async function getAccount(db: Db, name: string, entity?: string): Promise<CurrentAccount> {
  const [row] = await db
    .select({ account: accounts, entity: { name: entities.name, description: entities.description } })
    .from(accounts)
    .leftJoin(entities, eq(accounts.entity, entities.name))
    .where(eq(accounts.name, name))
    .limit(1);
  if (!row || (entity !== undefined && row.account.entity !== entity)) throw notFound('Account');
  const { password_hash: _hash, id: _id, ...account } = row.account;
  return {
    ...account,
    created_at: account.created_at.toISOString(),
    updated_at: account.updated_at.toISOString(),
    _entity: row.entity?.name ? { name: row.entity.name, description: row.entity.description } : null,
  };
}
