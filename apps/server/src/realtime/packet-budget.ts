/**
 * A token bucket over a client's incoming packets: `burst` at once, refilled at `perSecond`.
 * `take()` answers false once a client sends faster than that for longer than the burst lasts.
 */
export class PacketBudget {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.at = now();
  }

  /** Spends one packet; false when none is left. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
