import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import { findDeviceInScope, presentDevice } from '../device/device-scope.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { claimPlace } from './group-room.ts';
import { findGroup } from './group-scope.ts';

/**
 * `dispenser/{name}/put/{device}`: puts a device of the entity into the group, which becomes
 * both its `group` and its `last_dispenser` (where allocation later takes it from). A full
 * group refuses (409).
 */
export async function putDevice(db: Db, actor: AccessClaims, entity: string, group: string, device: string) {
  assertMayWrite(actor, 'Group');
  await findGroup(db, entity, group);
  await findDeviceInScope(db, device, entity);
  return db.transaction(async (tx) => {
    await claimPlace(tx, entity, group, device);
    const [row] = await tx
      .update(devices)
      .set({ group, last_dispenser: group })
      .where(eq(devices.name, device))
      .returning();
    return presentDevice(row!);
  });
}
