import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import { presentBeaconConfig } from './present-beacon.ts';

/** Every configuration of the entity, by patient name. */
export async function listBeaconConfigs(db: Db, entity: string) {
  const rows = await db
    .select()
    .from(beaconConfigs)
    .where(eq(beaconConfigs.entity, entity))
    .orderBy(asc(beaconConfigs.patient_name), asc(beaconConfigs.beacon_mac));
  return rows.map(presentBeaconConfig);
}
