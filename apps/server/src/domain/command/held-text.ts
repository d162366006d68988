import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

/**
 * Whether the device has never been heard from: its last sign of life is still its registration
 * (`updated_at` moves only on signs of life, docs/decisions/2026-11-22-device-last-seen.md).
 */
export async function neverConnected(db: Db, entity: string, name: string): Promise<boolean> {
  const [row] = rowsOf<{ never: boolean }>(
    await db.execute(sql`
      select updated_at = created_at as never from devices where name = ${name} and entity = ${entity}`),
  );
  return row?.never ?? false;
}

/**
 * The start of a held command's message: a device that never connected is not said to sleep.
 * `then` is what happens when it does, e.g. 'the command waits until it wakes'.
 */
export async function heldPrefix(db: Db, entity: string, name: string): Promise<{ prefix: string; when: string }> {
  return (await neverConnected(db, entity, name))
    ? { prefix: `Device ${name} has not connected yet`, when: 'it first connects' }
    : { prefix: `Device ${name} is asleep`, when: 'it wakes' };
}
