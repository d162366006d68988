import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartPool } from '../lib/part-pool.ts';
import { SCAVENGE_EVERY_BYTES, partsBody } from './parts-body.ts';

// Parts smaller than the socket's high-water mark (16 KB): `res.write` takes several before it
// asks to wait, so a part given back on the next read would be reused while still unsent.
const PART = 3_000;
const PARTS = 14_000; // 42 MB: more than loopback's socket buffers take while the client reads nothing
/** What may be lent at once: the parts the socket holds under its 16 KB mark and one more, 16 KB each. */
const BOUND = 8 * 16_384;

/** A source of PARTS parts copied into the pool, the part numbered i filled with i % 251. */
function source(pool: PartPool, seen: { pulled: number; maxLent: number; ended: boolean }) {
  return (async function* () {
    try {
      for (let i = 0; i < PARTS; i++) {
        const part = pool.copy(Buffer.alloc(PART, i % 251));
        seen.pulled++;
        seen.maxLent = Math.max(seen.maxLent, pool.lentBytes);
        yield part;
      }
    } finally {
      seen.ended = true;
    }
  })();
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server whose one route sends `source` through partsBody; answers its port and the reply. */
async function serve(seen: { pulled: number; maxLent: number; ended: boolean }, scavenges?: { count: number }) {
  const server = Fastify();
  app = server;
  const replies: FastifyReply[] = [];
  server.get('/export', (_request, reply) => {
    replies.push(reply);
    const pool = new PartPool();
    const gc = scavenges && (() => () => void scavenges.count++);
    return reply.send(partsBody(source(pool, seen), reply.raw, pool, gc));
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  return { port: (server.server.address() as AddressInfo).port, replies };
}

const get = (port: number) =>
  new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get({ host: '127.0.0.1', port, path: '/export' }, resolve).on('error', reject),
  );

describe('partsBody', () => {
  it('reads no further while the client does not, lends a few parts at most, and sends every byte', async () => {
    const seen = { pulled: 0, maxLent: 0, ended: false };
    const { port, replies } = await serve(seen);
    const res = await get(port);
    res.pause();
    // The socket's buffers are full: the response holds bytes it could not write.
    await vi.waitFor(() => expect(replies[0]?.raw.writableLength).toBeGreaterThan(0), { timeout: 10_000 });
    const stalled = seen.pulled;
    await turns(20);
    expect(seen.pulled).toBe(stalled);
    expect(stalled).toBeLessThan(PARTS);
    expect(seen.maxLent).toBeLessThanOrEqual(BOUND);

    // Read to the end: each part's bytes as it was made, none overwritten by a later part.
    let at = 0;
    let wrong = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      for (let from = 0; from < chunk.length;) {
        const to = Math.min(chunk.length, from + PART - (at % PART));
        if (!chunk.subarray(from, to).equals(Buffer.alloc(to - from, Math.floor(at / PART) % 251))) wrong++;
        at += to - from;
        from = to;
      }
    }
    expect(at).toBe(PART * PARTS);
    expect(wrong).toBe(0);
    expect(seen.maxLent).toBeLessThanOrEqual(BOUND);
    expect(seen.ended).toBe(true);
  });

  it('ends the source when the client goes away: its reads stop and its finally runs', async () => {
    const seen = { pulled: 0, maxLent: 0, ended: false };
    const { port } = await serve(seen);
    const res = await get(port);
    await new Promise((resolve) => res.once('data', resolve));
    res.destroy();
    await vi.waitFor(() => expect(seen.ended).toBe(true), { timeout: 10_000 });
    const after = seen.pulled;
    await turns(20);
    expect(seen.pulled).toBe(after);
    expect(after).toBeLessThan(PARTS);
  });

  it('asks for a scavenge every SCAVENGE_EVERY_BYTES handed over', async () => {
    const seen = { pulled: 0, maxLent: 0, ended: false };
    const scavenges = { count: 0 };
    const { port } = await serve(seen, scavenges);
    const res = await get(port);
    let bytes = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) bytes += chunk.length;
    expect(bytes).toBe(PART * PARTS);
    expect(scavenges.count).toBe(Math.floor((PART * PARTS) / SCAVENGE_EVERY_BYTES));
  });
});
