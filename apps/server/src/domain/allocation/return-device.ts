import { and, eq, isNull } from 'drizzle-orm';
import { RETURNED_STATE, alreadyInDispenser, type ReturnRequest } from '@fleet/shared/schemas/allocation';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { allocations, devices } from '../../db/schema.ts';
import { HttpError, invalidField } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { findDeviceInScope } from '../device/device-scope.ts';
import { claimPlace } from '../group/group-room.ts';
import { findGroup } from '../group/group-scope.ts';
import { findKiosk } from '../kiosk/kiosk-scope.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { tellDevice, type KioskReply } from './kiosk-answer.ts';
import { presentAllocationsFor } from './present-allocation.ts';

/**
 * POST kiosk/{entity}/{kiosk}/return: puts the device into the kiosk's chosen dispenser (its
 * group and last dispenser; a full dispenser refuses with 409, under the same lock as put-device),
 * closes its open allocation if it has one (the row stays as history), and tells the device.
 * A device already in that dispenser is refused (409): nothing would change but its state.
 * The return stands even if the device then refuses: it is where the operator put it. Recorded as
 * `allocation.return` with the change; a refusal (full, already there) as a failure.
 */
export async function returnDevice(
  deps: Deps,
  audit: AuditContext,
  actor: AccessClaims,
  entity: string,
  kiosk: string,
  req: Required<ReturnRequest>,
): Promise<KioskReply> {
  assertMayWrite(actor, 'Group');
  const { db } = deps;
  await findKiosk(db, entity, kiosk);
  const device = await findDeviceInScope(db, req.device, entity);
  const { row: group } = await findGroup(db, entity, req.dispenser);
  if (group.kiosk !== kiosk) throw invalidField('dispenser', `Dispenser ${group.name} is not in kiosk ${kiosk}`);
  const entry = {
    action: 'allocation.return',
    entity,
    target: { type: 'device', name: device.name },
    before: { group: device.group, last_dispenser: device.last_dispenser, state: device.state_current },
    after: { group: group.name, last_dispenser: group.name, state: RETURNED_STATE },
    complete: (row: typeof allocations.$inferSelect | undefined) => ({
      details: { kiosk, dispenser: group.name, allocation_id: row?.id ?? null },
    }),
  } as const;
  const closed = await audited(db, audit, entry, async (tx) => {
    await claimPlace(tx, entity, group.name, device.name, 'dispenser');
    // Read under the group's lock, so of two returns to one dispenser the second sees the first.
    const [now] = await tx.select({ group: devices.group }).from(devices).where(eq(devices.name, device.name));
    if (now?.group === group.name) {
      const message = alreadyInDispenser(device.name, group.name);
      throw new HttpError(409, message, 'Device already in the dispenser', { dispenser: [message] });
    }
    await tx
      .update(devices)
      .set({ group: group.name, last_dispenser: group.name, state_current: RETURNED_STATE })
      .where(eq(devices.name, device.name));
    const [row] = await tx
      .update(allocations)
      .set({ returned_at: new Date(), returned_by: actor.sub, returned_to: group.name, outcome: 'returned' })
      .where(and(eq(allocations.device, device.name), isNull(allocations.returned_at)))
      .returning();
    return row;
  });
  const payload = { type: 'return' as const, kiosk, dispenser: group.name, allocation_id: closed?.id ?? null };
  // The returner may not be the allocator: the answer shows only the dataviews it may read.
  const data = closed ? (await presentAllocationsFor(db, actor, [closed]))[0]! : null;
  return tellDevice(deps, actor, entity, device.name, payload, data);
}
