import { DEVICE_PUBLISH_KINDS, type DevicePublishKind } from '@fleet/shared/protocol';

/** A token bucket: `rate` messages a second sustained, up to `burst` at once. */
export interface Rate {
  rate: number;
  burst: number;
}

export interface BudgetLimits {
  /** Per message kind (topic) of one device. */
  kinds: Record<DevicePublishKind, Rate>;
  /** A device over budget this long without a pause is cut off. */
  cutOffAfterMs: number;
  /** How long a cut-off device stays cut off (its messages dropped, its reconnects refused). */
  coolDownMs: number;
}

/** Drops closer together than this are one episode of being over budget. */
const EPISODE_GAP_MS = 1_000;
/**
 * A device refused a message is not read again until its bucket holds this long's rate (the
 * embedded broker pauses its socket), at most MAX_PAUSE_MS: shorter than EPISODE_GAP_MS, so a
 * device that is over budget again each time it is read stays in one episode and is cut off.
 */
const REFILL_S = 0.5;
export const MAX_PAUSE_MS = 500;
/** Devices remembered at most; past this, the idle ones are forgotten first. */
const MAX_DEVICES = 200_000;
const KIND_INDEX = Object.fromEntries(DEVICE_PUBLISH_KINDS.map((k, i) => [k, i])) as Record<DevicePublishKind, number>;

interface Account {
  /** Tokens per kind, in DEVICE_PUBLISH_KINDS order, as of `at`. */
  tokens: number[];
  at: number;
  /** Start and latest drop of the current episode over budget (0: none). */
  overSince: number;
  lastDrop: number;
  /** Cut off until then (0: not). */
  cutUntil: number;
}

/**
 * Per-device message budgets (docs/device-protocol.md "Budgets and limits"): a token bucket per
 * device and message kind, checked on the topic alone before anything costly, so a flood costs a
 * map look-up a message. A device that keeps exceeding a budget for `cutOffAfterMs` is cut off for
 * `coolDownMs`: everything it sends is dropped and `onCutOff` is told (the embedded broker closes
 * its connection and refuses it meanwhile). The embedded broker charges it where it authorises a
 * publish and stops reading a refused device for `pauseMs`; with MQTT_URL the ingest charges it.
 * Fixed memory per device, a bounded number of devices; the clock is injected for tests.
 */
export class DeviceBudget {
  private readonly accounts = new Map<string, Account>();
  /** Told once per cut-off. */
  onCutOff: (device: string) => void = () => {};

  constructor(
    private readonly limits: BudgetLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the device may send one more message of this kind now; false means drop it. */
  admit(device: string, kind: DevicePublishKind): boolean {
    const now = this.now();
    let a = this.accounts.get(device);
    if (!a) {
      if (this.accounts.size >= MAX_DEVICES) this.forgetIdle(now);
      a = {
        tokens: DEVICE_PUBLISH_KINDS.map((k) => this.limits.kinds[k].burst),
        at: now,
        overSince: 0,
        lastDrop: 0,
        cutUntil: 0,
      };
      this.accounts.set(device, a);
    }
    if (a.cutUntil > now) return false;
    const elapsed = (now - a.at) / 1000;
    a.at = now;
    for (let i = 0; i < DEVICE_PUBLISH_KINDS.length; i++) {
      const limit = this.limits.kinds[DEVICE_PUBLISH_KINDS[i]!];
      a.tokens[i] = Math.min(limit.burst, a.tokens[i]! + elapsed * limit.rate);
    }
    const i = KIND_INDEX[kind];
    if (a.tokens[i]! >= 1) {
      a.tokens[i]!--;
      return true;
    }
    if (now - a.lastDrop > EPISODE_GAP_MS) a.overSince = now;
    a.lastDrop = now;
    if (now - a.overSince >= this.limits.cutOffAfterMs) {
      a.cutUntil = now + this.limits.coolDownMs;
      a.overSince = 0;
      this.onCutOff(device);
    }
    return false;
  }

  /**
   * How long to stop reading a device that was just refused a message of this kind: until that
   * bucket holds REFILL_S of its rate (at least one message, at most its burst), ≤ MAX_PAUSE_MS.
   */
  pauseMs(device: string, kind: DevicePublishKind): number {
    const a = this.accounts.get(device);
    if (!a) return 0;
    const limit = this.limits.kinds[kind];
    const wanted = Math.min(limit.burst, Math.max(1, limit.rate * REFILL_S));
    const missing = wanted - a.tokens[KIND_INDEX[kind]]! - ((this.now() - a.at) / 1000) * limit.rate;
    if (missing <= 0) return 0;
    return limit.rate > 0 ? Math.min(MAX_PAUSE_MS, (missing / limit.rate) * 1000) : MAX_PAUSE_MS;
  }

  /** True while the device is cut off (the embedded broker refuses its reconnects). */
  isCutOff(device: string): boolean {
    return (this.accounts.get(device)?.cutUntil ?? 0) > this.now();
  }

  private forgetIdle(now: number): void {
    for (const [device, a] of this.accounts)
      if (a.cutUntil <= now && now - a.lastDrop > EPISODE_GAP_MS) this.accounts.delete(device);
    if (this.accounts.size >= MAX_DEVICES) this.accounts.clear();
  }
}
