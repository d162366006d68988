import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { accounts } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';

/** `null`: the landlord's plain path across entities; a name: the `tenant/{entity}/` path. */
export type Scope = string | null;

export type AccountRow = typeof accounts.$inferSelect;

/** The account named in the scope, or 404: another entity's account is answered exactly as a missing one. */
export async function findAccountInScope(db: Executor, name: string, scope: Scope): Promise<AccountRow> {
  const [row] = await db.select().from(accounts).where(eq(accounts.name, name)).limit(1);
  if (!row || (scope !== null && row.entity !== scope)) throw notFound('Account');
  return row;
}

/** What the API shows of an account: never its id or password hash. */
export function presentAccount(row: AccountRow) {
  return {
    name: row.name,
    email: row.email,
    subtype: row.subtype,
    entity: row.entity,
    access: row.access,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
