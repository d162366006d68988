import type { FleetHealth, FleetHealthWindow } from '@fleet/shared/schemas/fleet-health';
import type { Db } from '../../db/client.ts';
import { fleetHistory } from './fleet-history.ts';
import { fleetNow, type FleetScope } from './fleet-now.ts';
import { fleetTrend } from './fleet-trend.ts';

/**
 * The fleet health of one entity, or of every entity (`null`): the figures of now from the
 * counts kept as devices change, and the window's history: 24 h from the hourly roll-up, the commands and
 * the provisioning sessions; 7 d and 30 d from the daily snapshot, today's column live. Nothing of another entity is read when a scope is given.
 */
export async function getFleetHealth(
  db: Db,
  scope: FleetScope,
  window: FleetHealthWindow,
  now = new Date(),
): Promise<FleetHealth> {
  const reading = fleetNow(db, scope, now);
  const total = reading.then((f) => f.devices.total);
  const past =
    window === '24h' ? fleetHistory(db, scope, window, now, total) : fleetTrend(db, scope, window, now, total);
  const [figures, history] = await Promise.all([reading, past]);
  return { window, at: now.toISOString(), ...figures, ...history };
}
