import type { EventInput } from './event-rules.ts';

/** Pairs remembered at most; past this, those whose window has passed are forgotten first. */
const MAX_PAIRS = 100_000;

/**
 * Which `beacon_detected` events are stored (docs/decisions/2026-11-25-mqtt-hardening.md): of the
 * sightings of one beacon at one gateway, one is stored per `windowMs` (by the sightings' own
 * times); the repeats inside the window still reach the browsers live but are not stored. A change
 * of `message_sent` is stored at once. Reminders and visit confirmations are decided from every
 * sighting before this and always stored. Per instance: with several, each stores its own first.
 */
export class SightingMerge {
  private readonly stored = new Map<string, { at: number; sent: boolean }>();

  constructor(private readonly windowMs: number) {}

  /** Whether to store this event (every event but a repeated detection within the window). */
  keep(e: EventInput): boolean {
    if (e.event_type !== 'beacon_detected' || this.windowMs <= 0) return true;
    const key = `${e.entity} ${e.gateway} ${e.beacon_mac}`;
    const at = new Date(e.timestamp).getTime();
    const last = this.stored.get(key);
    if (last && last.sent === e.message_sent && at >= last.at && at - last.at < this.windowMs) return false;
    if (!last && this.stored.size >= MAX_PAIRS) {
      for (const [k, v] of this.stored) if (at - v.at >= this.windowMs) this.stored.delete(k);
      if (this.stored.size >= MAX_PAIRS) this.stored.clear();
    }
    this.stored.set(key, { at, sent: e.message_sent });
    return true;
  }
}
