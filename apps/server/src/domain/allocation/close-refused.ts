import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * A device answered its `allocate` command with an error, perhaps long after the call (a held
 * command delivered when it woke): the allocation it refused closes as `refused`. Idempotent.
 */
export async function closeRefusedAllocation(db: Executor, device: string, payload: Record<string, unknown>) {
  const id = payload.allocation_id;
  if (typeof id !== 'string') return;
  await db.execute(sql`
    update allocations set returned_at = now(), outcome = 'refused'
    where id::text = ${id} and device = ${device} and returned_at is null`);
}
