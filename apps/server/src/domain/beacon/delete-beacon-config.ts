import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { findBeaconConfig } from './beacon-config-scope.ts';
import { assertMayChangeBeacons } from './beacon-policy.ts';
import { presentBeaconConfig } from './present-beacon.ts';

/** Removes a configuration (its reminders go with it; past events stay in the history). */
export async function deleteBeaconConfig(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  id: string,
): Promise<void> {
  assertMayChangeBeacons(actor);
  const target = await findBeaconConfig(db, entity, id);
  const entry = {
    action: 'beacon_config.delete',
    entity,
    target: { type: 'beacon_config', name: target.beacon_mac },
    before: presentBeaconConfig(target),
  } as const;
  await audited(db, ctx, entry, (tx) => tx.delete(beaconConfigs).where(eq(beaconConfigs.id, target.id)));
}
