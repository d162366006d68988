import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * A device answered its `allocate` command with an error, perhaps long after the call (a held
 * command delivered when it woke): the allocation it refused closes as `refused`, recorded as a
 * failed `allocation.create` by the device. Idempotent.
 */
export async function closeRefusedAllocation(
  db: Executor,
  device: string,
  payload: Record<string, unknown>,
  reason: string | null,
) {
  const id = payload.allocation_id;
  if (typeof id !== 'string') return;
  // The closing and its entry (a failed allocation.create, by the device) in one statement.
  await db.execute(sql`
    with closed as (
      update allocations set returned_at = now(), outcome = 'refused'
      where id::text = ${id} and device = ${device} and returned_at is null
      returning entity, device, id, kiosk)
    insert into audit_entries (entity, actor_kind, actor_id, actor_name, action, target_type, target_name,
      outcome, reason, details)
    select entity, 'device', device, device, 'allocation.create', 'device', device, 'failure',
      ${`Refused by the device: ${reason ?? 'The device reported an error'}`},
      jsonb_build_object('allocation_id', id, 'kiosk', kiosk)
    from closed`);
}
