interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(err: unknown): void;
}

/**
 * Items on their way to the database, one statement at a time: an item that comes while none
 * is running goes at once (no added wait when the server is idle); those that come while one
 * runs are written together by the next, at most `maxBatch` a statement. On the embedded
 * database's one connection this turns a statement an item into a statement per round trip, so
 * under load the items of one round trip share it (issue 32): command sends and their replies.
 */
export class CoalescingQueue<T, R> {
  private queue: Array<Waiting<T, R>> = [];
  private running = false;

  /** `write`: writes a batch and answers each item's result, in order. */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 100,
  ) {}

  /** Resolves with the item's result once its batch is written; rejects if that statement failed. */
  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.running = false;
  }
}
