import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInteractive, markRequestsInteractive } from './interactive-context.ts';

/** A promise the test resolves when it likes. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('requests marked interactive for the database lane', () => {
  // The aborted call's socket may still be open when the suite ends: close it too.
  const app = Fastify({ forceCloseConnections: true });
  const leftBehind = deferred();
  let afterResponse: Promise<boolean> = Promise.resolve(true);
  const arrived = deferred();
  const gone = deferred();
  const carryOn = deferred();
  let afterAbort: Promise<boolean> = Promise.resolve(true);
  const responded = deferred();
  let base = '';

  beforeAll(async () => {
    markRequestsInteractive(app);
    app.addHook('onResponse', async () => responded.resolve());
    app.get('/read', async () => {
      await new Promise((r) => setImmediate(r));
      return { interactive: isInteractive() };
    });
    // A body arrives on the socket's events, after the first hook ran.
    app.post('/write', async (request) => ({ interactive: isInteractive(), body: request.body }));
    app.get('/leave', async () => {
      afterResponse = leftBehind.promise.then(() => isInteractive());
      return { interactive: isInteractive() };
    });
    // The client gives up while the handler still works: what it does next is background.
    app.get('/abandoned', async (_request, reply) => {
      reply.raw.once('close', () => gone.resolve());
      afterAbort = carryOn.promise.then(() => isInteractive());
      arrived.resolve();
      await afterAbort;
      return { interactive: isInteractive() };
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('marks the queries of a request as interactive, across its awaits', async () => {
    expect(await (await fetch(`${base}/read`)).json()).toEqual({ interactive: true });
  });

  it('keeps the mark after the body is read', async () => {
    const res = await fetch(`${base}/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ large: 'x'.repeat(200_000) }),
    });
    const answer = (await res.json()) as { interactive: boolean; body: { large: string } };
    expect(answer.interactive).toBe(true);
    expect(answer.body.large).toHaveLength(200_000);
  });

  it('counts work a request leaves behind as background once the response is gone, and work outside requests', async () => {
    expect(await (await fetch(`${base}/leave`)).json()).toEqual({ interactive: true });
    await responded.promise;
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    leftBehind.resolve();
    expect(await afterResponse).toBe(false);
    expect(isInteractive()).toBe(false);
  });

  it('counts what a request does after its client went away as background', async () => {
    const client = new AbortController();
    const call = fetch(`${base}/abandoned`, { signal: client.signal }).catch(() => 'aborted');
    await arrived.promise;
    expect(isInteractive()).toBe(false);
    client.abort();
    expect(await call).toBe('aborted');
    await gone.promise;
    carryOn.resolve();
    expect(await afterAbort).toBe(false);
  });
});
