import type { z } from 'zod';
import type { BeaconConfigCreateSchema } from '@fleet/shared/schemas/beacon';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors.ts';
import { notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { beaconTaken } from './beacon-config-scope.ts';
import { assertMayChangeBeacons } from './beacon-policy.ts';
import { presentBeaconConfig } from './present-beacon.ts';

/** Adds a beacon configuration to the entity; the MAC (normalised by the schema) is unique there. */
export async function createBeaconConfig(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  input: z.output<typeof BeaconConfigCreateSchema>,
) {
  assertMayChangeBeacons(actor);
  const target = { type: 'beacon_config', name: input.beacon_mac } as const;
  const entry = { action: 'beacon_config.create', entity, target } as const;
  const complete = (after: ReturnType<typeof presentBeaconConfig>) => ({ after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    try {
      const [row] = await tx
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
  });
}
