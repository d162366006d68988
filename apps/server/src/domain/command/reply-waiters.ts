import type { Bus, CommandSettled } from '../../lib/bus.ts';

const keyOf = (id: string, device: string) => `${id}/${device}`;

/**
 * HTTP calls waiting for their commands' replies. A reply may reach any API instance (shared
 * subscriptions); the one that settles the row tells the others over the bus, and the instance
 * holding the waiter answers.
 */
export class ReplyWaiters {
  private readonly waiting = new Map<string, (settled: CommandSettled) => void>();

  constructor(private readonly bus: Bus) {
    bus.subscribe('commands.settled', (settled) => this.resolveLocal(settled));
  }

  /** Resolves with the outcome, or null when `deadline` (epoch ms) passes first. */
  wait(id: string, device: string, deadline: number): Promise<CommandSettled | null> {
    const key = keyOf(id, device);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.waiting.delete(key);
          resolve(null);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiting.set(key, (settled) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(settled);
      });
    });
  }

  /** Answers a waiter here, or tells the other instances. */
  async settle(settled: CommandSettled): Promise<void> {
    if (!this.resolveLocal(settled)) await this.bus.publish('commands.settled', settled);
  }

  private resolveLocal(settled: CommandSettled): boolean {
    const resolve = this.waiting.get(keyOf(settled.id, settled.device));
    resolve?.(settled);
    return resolve !== undefined;
  }
}
