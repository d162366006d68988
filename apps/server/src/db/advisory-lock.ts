import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './raw-sql.ts';

/**
 * Takes a transaction-scoped advisory lock if it is free: true when this transaction now holds
 * it (until it ends), false when another instance does. One sweep or driver at a time across
 * instances; a string key is hashed by the database (`hashtext`).
 */
export async function tryTransactionLock(tx: Db, key: number | string): Promise<boolean> {
  const [row] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select ${tryLockSql(key)} as ok`));
  return row?.ok === true;
}

/** The same lock as SQL, for a statement that takes it itself (held until that statement ends). */
export function tryLockSql(key: number | string): SQL {
  return sql`pg_try_advisory_xact_lock(${typeof key === 'number' ? sql`${key}` : sql`hashtext(${key})`})`;
}
