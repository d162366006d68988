import { AsyncResource } from 'node:async_hooks';
import type { ChunkSizer } from './chunk-sizer.ts';

interface Waiting<T, R> {
  item: T;
  /** Runs a function in the async context `add` was called in. */
  inContext: <V>(fn: () => V) => V;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Items on their way to the database, one statement at a time: an item that comes while none
 * is running goes at once (no added wait when the server is idle); those that come while one
 * runs are written together by the next, at most `maxBatch` a statement. On the embedded
 * database's one connection this turns a statement an item into a statement per round trip, so
 * under load the items of one round trip share it (issue 32): command sends and their replies.
 * A batch is written in the async context of its first item (whose caller still waits for it):
 * a request's send keeps its request's priority on the database (interactive-context.ts), though
 * the loop writing it was started by another request, which may be answered by now.
 */
export class CoalescingQueue<T, R> {
  private queue: Array<Waiting<T, R>> = [];
  private running = false;

  /**
   * `write`: writes a batch and answers each item's result, in order. `sizer`: a batch takes as many
   * items as it says (up to `maxBatch`), told each write's time.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 100,
    private readonly sizer?: ChunkSizer,
  ) {}

  /** Resolves with the item's result once its batch is written; rejects if that statement failed. */
  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, inContext: AsyncResource.bind((fn) => fn()), resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, Math.min(this.maxBatch, this.sizer?.size ?? Infinity));
      try {
        const items = batch.map((w) => w.item);
        const started = performance.now();
        const results = await batch[0]!.inContext(() => this.write(items));
        this.sizer?.observe(items.length, performance.now() - started);
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.running = false;
  }
}
