/** What the device is doing, as far as its battery is concerned. */
export type PowerDraw = 'idle' | 'dispensing' | 'error' | 'charging' | 'asleep';

/**
 * Percent per simulated hour; positive charges. Dispensing drives a motor, so it drains most;
 * asleep the radio is off. A full charge from empty takes about two and a half hours.
 */
export const BATTERY_RATE_PER_HOUR: Readonly<Record<PowerDraw, number>> = {
  idle: -2,
  dispensing: -12,
  error: -3,
  charging: 40,
  asleep: -0.5,
};

const HOUR_MS = 3_600_000;

/** The level (a fraction of a percent kept, 0–100) after `elapsedMs` of simulated time drawing `draw`. */
export function nextBattery(level: number, draw: PowerDraw, elapsedMs: number): number {
  const next = level + (BATTERY_RATE_PER_HOUR[draw] * elapsedMs) / HOUR_MS;
  return Math.min(100, Math.max(0, next));
}

/** The gauge as the protocol reports it: a whole percent, never 0 while any charge is left. */
export const reportedBattery = (level: number): number => (level > 0 ? Math.max(1, Math.round(level)) : 0);
