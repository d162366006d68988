import { eq } from 'drizzle-orm';
import type { DeviceUpdateSet } from '@fleet/shared/schemas/device';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { deviceTaken } from './create-device.ts';
import { newDeviceSecret } from './device-credentials.ts';
import { assertMayChangeDevices } from './device-policy.ts';
import { inGroup } from '../group/group-room.ts';
import { findDeviceInScope, presentDevice } from './device-scope.ts';

/** Applies `$set` to a device; an unchanged name is dropped. People's edits do not count as signs of life. */
export async function updateDevice(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  name: string,
  input: DeviceUpdateSet,
) {
  assertMayChangeDevices(actor);
  const target = await findDeviceInScope(db, name, scope);
  const { X509_certificate, ...set } = input;
  if (set.name === target.name) delete set.name;
  const values: Partial<typeof devices.$inferInsert> = { ...set };
  if (X509_certificate !== undefined) values.x509_certificate = X509_certificate;
  if (Object.keys(values).length === 0) return presentDevice(target);
  try {
    const group = values.group !== undefined && values.group !== target.group ? values.group : null;
    const before = presentDevice(target);
    const entry = {
      action: 'device.update',
      entity: target.entity,
      target: { type: 'device', name: target.name },
    } as const;
    const complete = (after: typeof before) => ({ before, after });
    return await audited(db, ctx, { ...entry, complete }, async (audit) => {
      const [row] = await inGroup(audit, target.entity, group, target.name, 'group', (tx) =>
        tx.update(devices).set(values).where(eq(devices.name, target.name)).returning(),
      );
      return presentDevice(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw deviceTaken('name');
    throw err;
  }
}

/** Replaces a device's MQTT secret; the old one stops working. Answers the new credentials once. */
export async function regenerateCredentials(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  name: string,
) {
  assertMayChangeDevices(actor);
  const target = await findDeviceInScope(db, name, scope);
  const secret = newDeviceSecret();
  const entry = {
    action: 'device.rekey',
    entity: target.entity,
    target: { type: 'device', name: target.name },
  } as const;
  await audited(db, ctx, entry, (tx) =>
    tx.update(devices).set({ mqtt_secret_hash: secret.hash }).where(eq(devices.name, target.name)),
  );
  return { username: target.name, password: secret.password, entity: target.entity };
}
