import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { assertMayChangeDevices } from './device-policy.ts';
import { findDeviceInScope } from './device-scope.ts';

/** Deletes one device of the scope. */
export async function deleteDevice(db: Db, actor: AccessClaims, scope: Scope, name: string): Promise<void> {
  assertMayChangeDevices(actor);
  const target = await findDeviceInScope(db, name, scope);
  await db.delete(devices).where(eq(devices.name, target.name));
}

/** Deletes every device of the scope (the landlord's plain path: of every entity). Answers their names. */
export async function deleteAllDevices(db: Db, actor: AccessClaims, scope: Scope): Promise<string[]> {
  assertMayChangeDevices(actor);
  const deleted = await db
    .delete(devices)
    .where(scope === null ? undefined : eq(devices.entity, scope))
    .returning({ name: devices.name });
  return deleted.map((d) => d.name);
}
