import { eq } from 'drizzle-orm';
import type { DeviceCreateRequestSchema } from '@fleet/shared/schemas/device';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import { devices } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';
import { SYSTEM_CONTEXT, type AuditContext } from '../audit/audit-context.ts';
import { audited, auditedStatement } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { createDevice } from './create-device.ts';

type Document = z.output<typeof DeviceCreateRequestSchema>['document'];

/**
 * Registers a device and gives its secret to the broker, or leaves it not registered at all
 * (503) when the broker cannot be reached. Answers what `createDevice` does.
 */
export async function registerDevice(deps: Deps, ctx: AuditContext, actor: AccessClaims, scope: Scope, doc: Document) {
  const entry = {
    action: 'device.create',
    entity: scope ?? doc.entity ?? null,
    target: { type: 'device', name: doc.name },
  } as const;
  // The device and its entry in one statement (createDevice adds the after-state).
  const data = await auditedStatement(deps.db, ctx, entry, (withEntry) =>
    createDevice(deps.db, actor, scope, doc, withEntry),
  );
  try {
    await deps.devices.access.issued([{ name: data.name, entity: data.entity, password: data.mqtt.password }]);
  } catch (err) {
    const undo = { action: 'device.delete', entity: data.entity, target: { type: 'device', name: data.name } } as const;
    await audited(deps.db, SYSTEM_CONTEXT, { ...undo, reason: 'MQTT broker unreachable: registration undone' }, (tx) =>
      tx.delete(devices).where(eq(devices.name, data.name)),
    );
    throw new HttpError(
      503,
      'The MQTT broker could not be reached; the device was not registered',
      (err as Error).message,
    );
  }
  return data;
}
