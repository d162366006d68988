import type { z } from 'zod';
import type { BeaconConfigCreateSchema } from '@fleet/shared/schemas/beacon';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { notFound } from '../../lib/http-error.ts';
import { beaconTaken } from './beacon-config-scope.ts';
import { assertMayChangeBeacons } from './beacon-policy.ts';
import { presentBeaconConfig } from './present-beacon.ts';

/** Adds a beacon configuration to the entity; the MAC (normalised by the schema) is unique there. */
export async function createBeaconConfig(
  db: Db,
  actor: AccessClaims,
  entity: string,
  input: z.output<typeof BeaconConfigCreateSchema>,
) {
  assertMayChangeBeacons(actor);
  try {
    const [row] = await db
      .insert(beaconConfigs)
      .values({ ...input, entity })
      .returning();
    return presentBeaconConfig(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw beaconTaken(input.beacon_mac);
    // The landlord may name any entity in the path; one that does not exist is not found (as device create).
    if (isForeignKeyViolation(err)) throw notFound('Entity');
    throw err;
  }
}
