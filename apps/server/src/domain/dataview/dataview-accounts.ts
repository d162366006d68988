import { and, eq, inArray } from 'drizzle-orm';
import { DATAVIEW_ACCOUNT_SUBTYPES } from '@fleet/shared/dataview-access';
import type { Executor } from '../../db/client.ts';
import { accounts, dataviewAccounts } from '../../db/schema.ts';
import { invalidField } from '../../lib/http-error.ts';

/**
 * Checks the owner and authorised accounts are admin or developer accounts of the entity and
 * answers the authorised set with the owner always in it (fleet §2), sorted.
 */
export async function checkDataviewAccounts(
  db: Executor,
  entity: string,
  owner: string,
  authorized: string[],
  fieldPrefix = 'document.',
): Promise<string[]> {
  const wanted = [...new Set([owner, ...authorized])];
  const found = await db
    .select({ name: accounts.name })
    .from(accounts)
    .where(
      and(
        eq(accounts.entity, entity),
        inArray(accounts.name, wanted),
        inArray(accounts.subtype, [...DATAVIEW_ACCOUNT_SUBTYPES]),
      ),
    );
  const ok = new Set(found.map((a) => a.name));
  if (!ok.has(owner)) throw invalidField(`${fieldPrefix}owner`, 'Choose an admin or developer account of this entity');
  const bad = wanted.filter((n) => !ok.has(n));
  if (bad.length > 0) {
    throw invalidField(
      `${fieldPrefix}authorized_accounts`,
      `Not an admin or developer account of this entity: ${bad.join(', ')}`,
    );
  }
  return wanted.sort();
}

/** Replaces a dataview's authorised accounts. */
export async function writeDataviewAccounts(db: Executor, dataviewId: string, names: string[]): Promise<void> {
  await db.delete(dataviewAccounts).where(eq(dataviewAccounts.dataview_id, dataviewId));
  if (names.length > 0) {
    await db.insert(dataviewAccounts).values(names.map((account) => ({ dataview_id: dataviewId, account })));
  }
}
