/**
 * The parts of an Aedes 1.2 client this relies on. Aedes reads a client in batches: `conn.read()`
 * takes everything its socket has buffered (up to ~80 KB: the stream's buffer plus one chunk from
 * the kernel), parses every packet in it, and hands each to the broker with `_nextBatch` as its
 * callback; `_parsingBatch` counts the packets still being handled, and the callback of the last
 * one reads the next batch. Those callbacks run as process ticks, so a device that keeps its
 * socket full is read batch after batch without the event loop ever turning.
 */
export interface SliceableClient {
  conn: { read(size?: number | null): unknown; readableLength: number };
  _nextBatch: (err?: Error | null) => void;
  _parsingBatch: number;
  closed: boolean;
}

/** Bytes of a device's socket handled in one turn of the event loop, at most (one packet may be longer). */
export const READ_SLICE_BYTES = 2 * 1024;

/**
 * Reads a signed-in device at most `sliceBytes` at a time, and when more is waiting, reads it on
 * the event loop's next turn instead of at once: whatever a device sends, the HTTP requests,
 * other devices and timers get their turn after at most one slice of its packets. A device that
 * sends less than a slice between reads is read exactly as before. `defer` is injected for tests.
 */
export function readInSlices(
  client: SliceableClient,
  sliceBytes = READ_SLICE_BYTES,
  defer: (next: () => void) => void = setImmediate,
): void {
  const conn = client.conn;
  const read = conn.read.bind(conn);
  const nextBatch = client._nextBatch;
  const later = () =>
    defer(() => {
      if (!client.closed) nextBatch();
    });
  // Aedes asks for everything (`read(null)`); a slice of it is what it gets.
  conn.read = (size?: number | null) => {
    if (size != null || conn.readableLength <= sliceBytes) return read(size);
    const slice = read(sliceBytes);
    // A slice that ends inside a packet may hold no whole one: nothing calls back, and the stream
    // does not tell again about data already buffered, so the reading goes on next turn.
    defer(() => {
      if (!client.closed && client._parsingBatch === 0 && conn.readableLength > 0) nextBatch();
    });
    return slice;
  };
  client._nextBatch = (err?: Error | null) => {
    // Not the last packet of the slice, or nothing more to read: as Aedes would.
    if (err || client._parsingBatch > 1 || conn.readableLength === 0) return nextBatch(err);
    later();
  };
}
