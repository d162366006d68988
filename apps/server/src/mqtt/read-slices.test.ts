import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readInSlices, type SliceableClient } from './read-slices.ts';

/**
 * A client that reads its socket the way an Aedes 1.2 client does: `_nextBatch` counts a packet
 * down and, after the last one, reads whatever is buffered. Each byte stands for one packet,
 * handled at once; what was read is recorded batch by batch.
 */
function aedesLikeClient(buffered: number, packetBytes = 1) {
  const conn = new PassThrough();
  conn.write(Buffer.alloc(buffered, 1));
  const batches: number[] = [];
  let partial = 0;
  const client: SliceableClient = {
    conn,
    closed: false,
    _parsingBatch: 0,
    _nextBatch: () => {
      client._parsingBatch--;
      if (client._parsingBatch > 0) return;
      client._parsingBatch = 0;
      const buf = client.conn.read(null) as Buffer | null;
      if (!buf) return;
      batches.push(buf.length);
      // Whole packets are handled; the bytes of one not yet complete wait for the next read.
      const packets = Math.floor((partial + buf.length) / packetBytes);
      partial = (partial + buf.length) % packetBytes;
      client._parsingBatch = packets;
      // Aedes looks the callback up on the client for every packet.
      for (let i = 0; i < packets; i++) client._nextBatch();
    },
  };
  // Aedes's 'readable' listener is the callback as it was before any wrapping.
  const readable = client._nextBatch;
  return { client, batches, readable };
}

/** readInSlices with its deferrals queued, to be run one event-loop turn at a time. */
function sliced(client: SliceableClient, sliceBytes: number) {
  const turns: Array<() => void> = [];
  readInSlices(client, sliceBytes, (next) => void turns.push(next));
  return turns;
}

/** Runs what was deferred to the next turn (what that turn defers waits for the one after). */
function turn(turns: Array<() => void>) {
  for (const next of turns.splice(0)) next();
}

describe('readInSlices', () => {
  it('reads a full socket one slice a turn, not all at once', () => {
    const { client, batches, readable } = aedesLikeClient(10_000);
    const turns = sliced(client, 4096);
    readable();
    expect(batches).toEqual([4096]);
    turn(turns);
    expect(batches).toEqual([4096, 4096]);
    turn(turns);
    expect(batches).toEqual([4096, 4096, 1808]);
    turn(turns);
    expect(batches).toEqual([4096, 4096, 1808]);
    expect(turns).toHaveLength(0);
  });

  it('reads what fits in a slice exactly as before, without waiting a turn', () => {
    const { client, batches, readable } = aedesLikeClient(1000);
    const turns = sliced(client, 4096);
    readable();
    expect(batches).toEqual([1000]);
    expect(turns).toHaveLength(0);
  });

  it('goes on reading a packet longer than a slice', () => {
    const { client, batches, readable } = aedesLikeClient(10_000, 10_000);
    const turns = sliced(client, 4096);
    readable();
    // The slice held no whole packet, so nothing called back: the reading goes on by itself.
    turn(turns);
    expect(batches).toEqual([4096, 4096]);
    turn(turns);
    expect(batches).toEqual([4096, 4096, 1808]);
  });

  it('passes an explicit read size through', () => {
    const { client } = aedesLikeClient(10_000);
    sliced(client, 4096);
    expect((client.conn.read(6000) as Buffer).length).toBe(6000);
  });

  it('does not read a client closed while it waited for its turn', () => {
    const { client, batches, readable } = aedesLikeClient(10_000);
    const turns = sliced(client, 4096);
    readable();
    client.closed = true;
    turn(turns);
    expect(batches).toEqual([4096]);
  });
});
