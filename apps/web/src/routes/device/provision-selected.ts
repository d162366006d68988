import type { Device } from '@fleet/shared/schemas/device';
import { commandAvailability } from '@/lib/device/command-availability.ts';

/** Calls per entity, as the Multi-Device Action plans them. */
type Calls = ReadonlyArray<{ entity: string; devices: readonly string[] }>;

/** Which selected devices "Provision selected" starts a session on, and which it leaves out and why. */
export interface ProvisionSelectedPlan {
  calls: Array<{ entity: string; devices: string[] }>;
  starting: number;
  /** Responsive but not connected: a session is a live exchange, not held like a command. */
  asleep: string[];
  /** Registered but never heard from. */
  neverConnected: string[];
  /** Left out before this plan (no sign of life for 20 minutes, or not on a loaded page). */
  unresponsive: number;
  unlisted: number;
}

/**
 * Narrows the Multi-Device Action's calls to the devices connected now, as a row's Provision
 * button does (docs/decisions/2026-11-25-device-feedback.md): sleeping and never-connected
 * devices are skipped, not sent a start the server refuses with 409. A device the list has not
 * loaded is tried: the server says why if it cannot start.
 */
export function planProvisionSelected(
  planned: { calls: Calls; unresponsive: readonly string[]; unlisted: readonly string[] },
  deviceOf: (name: string) => Pick<Device, 'online' | 'created_at' | 'updated_at'> | undefined,
  now: number,
): ProvisionSelectedPlan {
  const plan: ProvisionSelectedPlan = {
    calls: [],
    starting: 0,
    asleep: [],
    neverConnected: [],
    unresponsive: planned.unresponsive.length,
    unlisted: planned.unlisted.length,
  };
  for (const call of planned.calls) {
    const devices: string[] = [];
    for (const name of call.devices) {
      const device = deviceOf(name);
      const availability = device ? commandAvailability(device, now) : null;
      if (availability?.neverConnected) plan.neverConnected.push(name);
      else if (availability?.asleep) plan.asleep.push(name);
      else devices.push(name);
    }
    if (devices.length > 0) plan.calls.push({ entity: call.entity, devices });
    plan.starting += devices.length;
  }
  return plan;
}

const count = (n: number) => `${n} device${n === 1 ? '' : 's'}`;

/** What was skipped, e.g. '2 skipped: 1 asleep, 1 not connected yet'; '' when nothing was. */
function skipped(plan: ProvisionSelectedPlan): string {
  const parts = [
    plan.asleep.length > 0 && `${plan.asleep.length} asleep`,
    plan.neverConnected.length > 0 && `${plan.neverConnected.length} not connected yet`,
    plan.unresponsive > 0 && `${plan.unresponsive} unresponsive`,
    plan.unlisted > 0 && `${plan.unlisted} not on a loaded page`,
  ].filter(Boolean);
  const total = plan.asleep.length + plan.neverConnected.length + plan.unresponsive + plan.unlisted;
  return total === 0 ? '' : `${total} skipped: ${parts.join(', ')}`;
}

/** Why the skipped ones were skipped, once any of them sleeps or never connected. */
const NEEDS_CONNECTED = 'provisioning needs the device connected: start it once the device is online.';

/**
 * The warning "Provision selected" shows: why nothing started (every selected device skipped),
 * or how many started and how many were skipped and why; null when every selected device goes.
 */
export function provisionSelectedNotice(plan: ProvisionSelectedPlan): string | null {
  const why = skipped(plan);
  if (why === '') return null;
  const offline = plan.asleep.length + plan.neverConnected.length > 0;
  if (plan.starting === 0)
    return offline
      ? `Provisioning not started: no selected device is connected (${why}); ${NEEDS_CONNECTED}`
      : `Provisioning not started: no selected device is responsive (${why})`;
  return `Provisioning started on ${count(plan.starting)}; ${why}${offline ? ` — ${NEEDS_CONNECTED}` : '.'}`;
}
