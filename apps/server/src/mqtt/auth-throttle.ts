export interface ThrottleLimits {
  /** Wrong secrets for one device id from one address before it is refused for a while. */
  perPair: number;
  /** Wrong secrets from one address, whatever the device ids, before it is refused. */
  perAddress: number;
  /** Wrong secrets for one device id from any addresses (a spread-out attack) before it is refused. */
  perDevice: number;
  /** The first refusal lasts this long; each one after doubles it, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

interface Strikes {
  failures: number;
  /** Refusals so far: the next one lasts backoffMs × 2^blocks. */
  blocks: number;
  until: number;
  last: number;
}

/** Keys remembered at most; past this, keys not refusing anyone are forgotten first. */
const MAX_KEYS = 100_000;

/**
 * Throttles guessing of device secrets on the embedded broker: failures are counted per (device
 * id, address), per address and per device id, and past each one's limit that key is refused for
 * a back-off window that doubles every time it trips (docs/decisions/2026-11-25-mqtt-hardening.md).
 * The per-pair limit is the tight one, so a stranger failing a device's id from one address locks
 * out only itself; the per-device limit is higher and meant for attacks from many addresses. A
 * refused attempt is not checked and does not count, so a device retrying with an old secret
 * does not extend its own window. Memory is bounded; the clock is injected for tests.
 */
export class AuthThrottle {
  private readonly keys = new Map<string, Strikes>();

  constructor(
    private readonly limits: ThrottleLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** True while any of the attempt's keys is in its back-off window. */
  refused(device: string, address: string): boolean {
    const now = this.now();
    return this.keysOf(device, address).some(([key]) => (this.keys.get(key)?.until ?? 0) > now);
  }

  /**
   * A wrong secret (or an unknown device): counts against every key of the attempt, unless one is
   * refused by now (attempts on several sockets are checked before the first answer lands; those
   * answered after a key tripped count no more than the attempts refused outright).
   */
  failed(device: string, address: string): void {
    if (this.refused(device, address)) return;
    const now = this.now();
    if (this.keys.size >= MAX_KEYS) this.forget(now);
    for (const [key, limit] of this.keysOf(device, address)) {
      let s = this.keys.get(key);
      // A key quiet for the longest window starts afresh.
      if (!s || now - s.last > this.limits.maxBackoffMs) s = { failures: 0, blocks: 0, until: 0, last: now };
      s.failures++;
      s.last = now;
      if (s.failures >= limit) {
        s.until = now + Math.min(this.limits.backoffMs * 2 ** s.blocks, this.limits.maxBackoffMs);
        s.blocks++;
        s.failures = 0;
      }
      this.keys.set(key, s);
    }
  }

  /** The right secret: the device's own counts start afresh (the address's do not). */
  succeeded(device: string, address: string): void {
    this.keys.delete(`p ${device} ${address}`);
    this.keys.delete(`d ${device}`);
  }

  private keysOf(device: string, address: string): Array<[string, number]> {
    return [
      [`p ${device} ${address}`, this.limits.perPair],
      [`a ${address}`, this.limits.perAddress],
      [`d ${device}`, this.limits.perDevice],
    ];
  }

  private forget(now: number): void {
    for (const [key, s] of this.keys) if (s.until <= now) this.keys.delete(key);
    if (this.keys.size >= MAX_KEYS) this.keys.clear();
  }
}
