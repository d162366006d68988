import type { ProvisionDeviceEvent } from '@fleet/shared/provision';
import type { FlushLoop } from '../../lib/batching/flush-loop.ts';

/** A report that arrived before one it follows waits up to EARLY_RETRIES × EARLY_WAIT_MS (3 s) for it. */
export const EARLY_RETRIES = 120;
const EARLY_WAIT_MS = 25;

/** A device's report waiting to be applied, and its caller waiting for the answer. */
export interface Queued {
  device: string;
  /** The session, as the database spells it. */
  sid: string;
  e: ProvisionDeviceEvent;
  /** How often it came early already. */
  attempt: number;
  done(): void;
  fail(err: unknown): void;
}

/** One session's reports in the device's order, in place: numbered ones by `n`, the others where they arrived. */
export function inDeviceOrder(list: Queued[]): Queued[] {
  const at = list.flatMap((q, i) => (q.e.n === undefined ? [] : [i]));
  const numbered = at.map((i) => list[i]!).sort((a, b) => a.e.n! - b.e.n!);
  at.forEach((i, k) => (list[i] = numbered[k]!));
  return list;
}

/**
 * Reports that came early (one they follow is missing: behind them, or on another instance), each
 * offered again after a moment through `again`.
 */
export class EarlyReports {
  private readonly waiting = new Map<NodeJS.Timeout, Queued>();
  private closing = false;

  constructor(private readonly again: (q: Queued, attempt: number) => void) {}

  /** Offers `q` again in a moment, as its next try. */
  later(q: Queued): void {
    const t = setTimeout(() => {
      this.waiting.delete(t);
      this.again(q, q.attempt + 1);
    }, EARLY_WAIT_MS);
    t.unref();
    this.waiting.set(t, q);
  }

  /** Whether a report ahead of one missing still waits for it (it is given up on after its tries, or at shutdown). */
  waits(q: Queued): boolean {
    return q.attempt < EARLY_RETRIES && !this.closing;
  }

  /**
   * Shutdown of the batcher that `flushes` writes: once the flush in progress is done, every
   * waiting report is offered again at once, as its last try, and everything queued is written.
   */
  async close(flushes: Pick<FlushLoop<unknown>, 'settled' | 'close'>): Promise<void> {
    this.closing = true;
    await flushes.settled();
    for (const [t, q] of this.waiting) {
      clearTimeout(t);
      this.again(q, EARLY_RETRIES);
    }
    this.waiting.clear();
    await flushes.close();
  }
}
