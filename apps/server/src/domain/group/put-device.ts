import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { findDeviceInScope, presentDevice } from '../device/device-scope.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { claimPlace } from './group-room.ts';
import { findGroup } from './group-scope.ts';

/**
 * `dispenser/{name}/put/{device}`: puts a device of the entity into the group, which becomes
 * both its `group` and its `last_dispenser` (where allocation later takes it from). A full
 * group refuses (409). Recorded as the device's change (`device.update`, its group and last
 * dispenser before and after), naming the group in the details.
 */
export async function putDevice(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  group: string,
  device: string,
) {
  assertMayWrite(actor, 'Group');
  await findGroup(db, entity, group);
  const target = await findDeviceInScope(db, device, entity);
  const entry = {
    action: 'device.update',
    entity,
    target: { type: 'device', name: target.name },
    details: { put_in_group: group },
  } as const;
  const before = { group: target.group, last_dispenser: target.last_dispenser };
  const complete = (after: ReturnType<typeof presentDevice>) => ({
    before,
    after: { group: after.group, last_dispenser: after.last_dispenser },
  });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    await claimPlace(tx, entity, group, device);
    const [row] = await tx
      .update(devices)
      .set({ group, last_dispenser: group })
      .where(eq(devices.name, device))
      .returning();
    return presentDevice(row!);
  });
}
