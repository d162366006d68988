import { and, eq, inArray } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { DeviceServices } from '../deps.ts';
import { assertMayChangeDevices } from '../device/device-policy.ts';
import type { Member } from './run-selection.ts';
import type { Batches, SelectionRunner } from './selection-runner.ts';
import { auditSelection } from './selection-audit.ts';
import { claimSelection, findSelection, presentSelection } from './selection-scope.ts';

/** Deletes one batch, each device only within its entity; their broker sessions end. */
async function deleteBatch(db: Db, access: DeviceServices['access'], batch: Member[]) {
  const byEntity = new Map<string, Member[]>();
  for (const m of batch) byEntity.set(m.entity, [...(byEntity.get(m.entity) ?? []), m]);
  for (const [entity, members] of byEntity) {
    const gone = await db
      .delete(devices)
      .where(
        and(
          eq(devices.entity, entity),
          inArray(
            devices.name,
            members.map((m) => m.device),
          ),
        ),
      )
      .returning({ name: devices.name });
    if (gone.length > 0) await access.revoked(gone.map((d) => d.name));
  }
}

/** The batches of a delete (a device deleted already is not there to delete again). */
export const deleteBatches =
  (db: Db, access: DeviceServices['access']): Batches =>
  (batch) =>
    deleteBatch(db, access, batch);

/** Deletes every device of a counted selection in batches: one `device.bulk_delete` entry. */
export async function deleteSelection(
  db: Db,
  runner: SelectionRunner,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
) {
  assertMayChangeDevices(actor);
  const sel = await claimSelection(db, await findSelection(db, scope, actor, id), 'delete', {}, runner.holder);
  await auditSelection(db, ctx, sel, { action: 'device.bulk_delete', target: { type: 'device', name: null } });
  runner.run(sel);
  return presentSelection(sel);
}
