import { eq, sql } from 'drizzle-orm';
import { BEACON_FORM_MESSAGES, type BeaconConfigUpdate } from '@fleet/shared/schemas/beacon';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import { invalidField } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { findBeaconConfig } from './beacon-config-scope.ts';
import { assertMayChangeBeacons } from './beacon-policy.ts';
import { presentBeaconConfig } from './present-beacon.ts';

/** Changes a configuration; its MAC is immutable (sent unchanged it is ignored, changed it is refused). */
export async function updateBeaconConfig(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  id: string,
  input: BeaconConfigUpdate,
) {
  assertMayChangeBeacons(actor);
  const target = await findBeaconConfig(db, entity, id);
  const { beacon_mac, ...set } = input;
  if (beacon_mac !== undefined && beacon_mac !== target.beacon_mac) {
    throw invalidField('beacon_mac', BEACON_FORM_MESSAGES.macImmutable);
  }
  if (Object.keys(set).length === 0) return presentBeaconConfig(target);
  const before = presentBeaconConfig(target);
  const entry = {
    action: 'beacon_config.update',
    entity,
    target: { type: 'beacon_config', name: target.beacon_mac },
  } as const;
  const complete = (after: typeof before) => ({ before, after });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    const [row] = await tx
      .update(beaconConfigs)
      .set({ ...set, updated_at: sql`now()` })
      .where(eq(beaconConfigs.id, target.id))
      .returning();
    return presentBeaconConfig(row!);
  });
}
