import type { FleetHealth, FleetHealthWindow } from '@fleet/shared/schemas/fleet-health';
import type { Db } from '../../db/client.ts';
import { fleetHistory } from './fleet-history.ts';
import { fleetNow, type FleetScope } from './fleet-now.ts';

/**
 * The fleet health of one entity, or of every entity (`null`): the figures of now read in one
 * scan of the devices, and the window's history from the hourly roll-up, the commands and the
 * provisioning sessions. Nothing of another entity is read when a scope is given.
 */
export async function getFleetHealth(
  db: Db,
  scope: FleetScope,
  window: FleetHealthWindow,
  now = new Date(),
): Promise<FleetHealth> {
  const [figures, history] = await Promise.all([fleetNow(db, scope, now), fleetHistory(db, scope, window, now)]);
  return { window, at: now.toISOString(), ...figures, ...history };
}
