import type { DeviceReply } from './settle-reply.ts';

interface Waiting extends DeviceReply {
  resolve(found: boolean): void;
  reject(err: unknown): void;
}

/**
 * Replies on their way to the database, one settling statement at a time: a reply that comes
 * while none is running goes at once (no added wait when the server is idle); those that come
 * while one runs are settled together by the next, at most `maxBatch` a statement. On the
 * embedded database's one connection this turns a statement a reply into a statement per
 * round trip, so under load the replies of one round trip share it (issue 32).
 */
export class SettleQueue {
  private queue: Waiting[] = [];
  private running = false;

  /** `settle`: settles a batch and answers, for each reply, whether an open row took it (settleReplies). */
  constructor(
    private readonly settle: (replies: DeviceReply[]) => Promise<boolean[]>,
    private readonly maxBatch = 100,
  ) {}

  /** Resolves once the reply's row is settled (or found already settled: false); rejects if its statement failed. */
  add(device: string, reply: DeviceReply['reply']): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ device, reply, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const found = await this.settle(batch.map(({ device, reply }) => ({ device, reply })));
        batch.forEach((w, i) => w.resolve(found[i] ?? false));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.running = false;
  }
}
