/**
 * The parts of an Aedes 1.2 client this relies on: `pause()` stops its read loop (the next
 * `read()` of the socket) and `resume()` restarts it; `_parsingBatch` counts the packets of the
 * current read still being handled. While paused the client skips that count, so it is cleared on
 * resume: otherwise the read loop would wait for packets that already finished.
 */
export interface PausableClient {
  pause(): void;
  resume(): void;
  _parsingBatch: number;
  closed: boolean;
}

/**
 * Stops reading a client's socket for `ms`: what it sends meanwhile waits in the socket buffers,
 * then in the kernel's, and once those are full TCP stops the sender, so a device over its
 * budget is slowed for nothing instead of being read and dropped. The packets of the read already
 * taken are still handled. Pausing a paused client does not extend the pause.
 */
export class ReadPause {
  private readonly paused = new WeakSet<PausableClient>();

  constructor(
    private readonly schedule: (resume: () => void, ms: number) => void = (resume, ms) =>
      setTimeout(resume, ms).unref(),
  ) {}

  /** False when the client was paused already (or closed). */
  pause(client: PausableClient, ms: number): boolean {
    if (this.paused.has(client) || client.closed) return false;
    this.paused.add(client);
    client.pause();
    this.schedule(() => {
      this.paused.delete(client);
      if (client.closed) return;
      client._parsingBatch = 0;
      client.resume();
    }, ms);
    return true;
  }

  isPaused(client: PausableClient): boolean {
    return this.paused.has(client);
  }
}
