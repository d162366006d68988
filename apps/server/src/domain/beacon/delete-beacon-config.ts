import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import { findBeaconConfig } from './beacon-config-scope.ts';
import { assertMayChangeBeacons } from './beacon-policy.ts';

/** Removes a configuration (its reminders go with it; past events stay in the history). */
export async function deleteBeaconConfig(db: Db, actor: AccessClaims, entity: string, id: string): Promise<void> {
  assertMayChangeBeacons(actor);
  const target = await findBeaconConfig(db, entity, id);
  await db.delete(beaconConfigs).where(eq(beaconConfigs.id, target.id));
}
