import type { Bus, CommandSettled } from '../../lib/bus.ts';

const keyOf = (id: string, device: string) => `${id}/${device}`;

/** What a wait answers when the server shut down before the device replied. */
export const SHUT_DOWN = 'shut_down' as const;
export type WaitOutcome = CommandSettled | null | typeof SHUT_DOWN;

/**
 * HTTP calls waiting for their commands' replies. A reply may reach any API instance (shared
 * subscriptions); the one that settles the row tells the others over the bus, and the instance
 * holding the waiter answers. At shutdown the waits are drained: replies still arriving are
 * answered, and whatever still waits after that is let go (SHUT_DOWN).
 */
export class ReplyWaiters {
  private readonly waiting = new Map<string, (outcome: Exclude<WaitOutcome, null>) => void>();
  private ended = false;
  /** Called whenever a wait ends while draining. */
  private onIdle: (() => void) | null = null;

  constructor(private readonly bus: Bus) {
    bus.subscribe('commands.settled', (settled) => this.resolveLocal(settled));
  }

  /** Whether the server is shutting down: no new wait can be answered by a device any more. */
  get closed(): boolean {
    return this.ended;
  }

  /** Resolves with the outcome, null when `deadline` (epoch ms) passes first, or SHUT_DOWN. */
  wait(id: string, device: string, deadline: number): Promise<WaitOutcome> {
    if (this.ended) return Promise.resolve(SHUT_DOWN);
    const key = keyOf(id, device);
    return new Promise((resolve) => {
      const finish = (outcome: WaitOutcome) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(outcome);
        this.onIdle?.();
      };
      const timer = setTimeout(() => finish(null), Math.max(0, deadline - Date.now()));
      this.waiting.set(key, finish);
    });
  }

  /** Answers a waiter here, or tells the other instances. */
  async settle(settled: CommandSettled): Promise<void> {
    if (!this.resolveLocal(settled)) await this.bus.publish('commands.settled', settled);
  }

  /**
   * Shutdown: waits up to `ms` for the calls still waiting to get their replies (the broker is
   * still up), then answers the rest SHUT_DOWN; later waits answer so at once.
   */
  async drain(ms: number): Promise<void> {
    if (this.waiting.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.onIdle = () => {
          if (this.waiting.size > 0) return;
          clearTimeout(timer);
          resolve();
        };
      });
      this.onIdle = null;
    }
    this.ended = true;
    for (const finish of [...this.waiting.values()]) finish(SHUT_DOWN);
  }

  private resolveLocal(settled: CommandSettled): boolean {
    const resolve = this.waiting.get(keyOf(settled.id, settled.device));
    resolve?.(settled);
    return resolve !== undefined;
  }
}
