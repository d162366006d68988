import { eq, sql } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { auditedReturning } from '../audit/audited-returning.ts';
import { notFound } from '../../lib/http-error.ts';
import { assertMayChangeDevices } from './device-policy.ts';
import { findDeviceInScope, presentDevice } from './device-scope.ts';

/** Deletes one device of the scope. */
export async function deleteDevice(db: Db, ctx: AuditContext, actor: AccessClaims, scope: Scope, name: string) {
  assertMayChangeDevices(actor);
  const target = await findDeviceInScope(db, name, scope);
  const entry = {
    action: 'device.delete',
    entity: target.entity,
    target: { type: 'device', name: target.name },
  } as const;
  // The deletion and its entry in one statement; gone meanwhile (another request deleted it): 404.
  await auditedReturning(
    db,
    ctx,
    { ...entry, before: presentDevice(target) },
    sql`delete from ${devices} where ${devices.name} = ${target.name} returning ${devices.name}`,
    { none: () => notFound('Device') },
  );
}

/** Deletes every device of the scope (the landlord's plain path: of every entity). Answers their names. */
export async function deleteAllDevices(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
): Promise<string[]> {
  assertMayChangeDevices(actor);
  // One entry for the whole operation, with the count and the names (none when nothing went).
  const entry = { action: 'device.bulk_delete', entity: scope, target: { type: 'device', name: null } } as const;
  const complete = (names: string[]) => (names.length ? { details: { count: names.length, names } } : null);
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    const deleted = await tx
      .delete(devices)
      .where(scope === null ? undefined : eq(devices.entity, scope))
      .returning({ name: devices.name });
    return deleted.map((d) => d.name);
  });
}
