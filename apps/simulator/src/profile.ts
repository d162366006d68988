import type { DeviceStatus } from './device-model.ts';
import { type Random, between, weighted } from './random.ts';

/** Firmware across a fleet mid-rollout: most on the current release, a few on a release candidate. */
export const FIRMWARE_SPREAD = [
  ['1.4.2', 2],
  ['1.5.0', 3],
  ['1.5.1', 4],
  ['2.0.0-rc1', 1],
] as const;

/**
 * A device's status when the simulation begins: its firmware, a battery level (mostly charged, a
 * few nearly flat so the console's battery bands all show) and whether it sits in its dock.
 */
export function initialStatus(rng: Random): DeviceStatus {
  const fwVersion = weighted(rng, FIRMWARE_SPREAD);
  const band = weighted(rng, [
    ['high', 6],
    ['medium', 3],
    ['low', 1],
  ] as const);
  const battery =
    band === 'high' ? between(rng, 76, 100) : band === 'medium' ? between(rng, 51, 76) : between(rng, 3, 51);
  const state = weighted(rng, [
    ['WAITING', 14],
    ['charging', battery < 51 ? 10 : 3],
    ['ALLOCATED', 2],
    ['ERROR', 1],
    ['DEFECT', 0.3],
    ['BOOTING', 0.5],
  ] as const);
  return { state, fwVersion, battery };
}
