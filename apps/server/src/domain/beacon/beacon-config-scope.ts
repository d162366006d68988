import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { BeaconConfigRow } from './present-beacon.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The entity's configuration with this id, or 404: another entity's (or a malformed id) is a missing one. */
export async function findBeaconConfig(db: Executor, entity: string, id: string): Promise<BeaconConfigRow> {
  if (!UUID.test(id)) throw notFound('Beacon configuration');
  const [row] = await db
    .select()
    .from(beaconConfigs)
    .where(and(eq(beaconConfigs.id, id), eq(beaconConfigs.entity, entity)))
    .limit(1);
  if (!row) throw notFound('Beacon configuration');
  return row;
}

/** 409 for a MAC already configured in the entity. */
export const beaconTaken = (mac: string) =>
  new HttpError(409, `Beacon ${mac} is already configured`, 'beacon_mac is unique in the entity', {
    beacon_mac: [`Beacon ${mac} is already configured`],
  });
