import { eq } from 'drizzle-orm';
import type { CurrentAccount } from '@fleet/shared/schemas/account';
import { accounts, entities } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/http-error.ts';
import { presentAccount, type Scope } from './account-scope.ts';

/**
 * An account by name with its entity's name and description. In an entity's scope, an account of
 * another entity answers 404 exactly as a missing one does.
 */
export async function getAccount(db: Db, name: string, scope: Scope): Promise<CurrentAccount> {
  const [row] = await db
    .select({ account: accounts, entity: { name: entities.name, description: entities.description } })
    .from(accounts)
    .leftJoin(entities, eq(accounts.entity, entities.name))
    .where(eq(accounts.name, name))
    .limit(1);
  if (!row || (scope !== null && row.account.entity !== scope)) throw notFound('Account');
  return {
    ...presentAccount(row.account),
    _entity: row.entity?.name ? { name: row.entity.name, description: row.entity.description } : null,
  };
}
