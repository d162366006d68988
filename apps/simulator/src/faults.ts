import type { Random } from './random.ts';

/**
 * Ways a device misbehaves, each a probability (0–1) per chance to misbehave:
 * - `noReply`: a command is acted on silently (the server's wait times out);
 * - `error`: a command is answered with an error;
 * - `disconnect`: the link fails, without a clean DISCONNECT so the broker publishes the Last
 *   Will, as a command arrives (unanswered) or at a state report; the device reconnects after a pause;
 * - `refuseKiosk`: an `allocate` or `return` command is refused (the device answers an error and
 *   keeps its state), as a unit that is busy or damaged would.
 */
export interface Faults {
  noReply: number;
  error: number;
  disconnect: number;
  refuseKiosk: number;
}

export const NO_FAULTS: Readonly<Faults> = { noReply: 0, error: 0, disconnect: 0, refuseKiosk: 0 };

/** Faults as a caller sets them: a probability, or true / false to force one on or off. */
export type FaultSettings = { [K in keyof Faults]?: number | boolean };

/** `base` with `settings` applied; true means always, false never. */
export function applyFaults(base: Readonly<Faults>, settings: FaultSettings): Faults {
  const next = { ...base };
  for (const key of Object.keys(NO_FAULTS) as (keyof Faults)[]) {
    const v = settings[key];
    if (v !== undefined) next[key] = v === true ? 1 : v === false ? 0 : v;
  }
  return next;
}

/**
 * Whether a fault of probability `p` happens now. Certain and impossible faults draw no number,
 * so forcing one in a test leaves the rest of the seeded run as it was.
 */
export function happens(rng: Random, p: number): boolean {
  if (p <= 0) return false;
  if (p >= 1) return true;
  return rng() < p;
}
