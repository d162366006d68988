import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startPeer, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * Two API instances on one Redis share every rate limit: a client cannot double its budget by
 * spreading its calls over instances (scale mode only, see scripts/ci/with-services.sh).
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  throw new Error('The scale suite needs DATABASE_URL and REDIS_URL (see scripts/ci/with-services.sh)');
}

let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;

beforeAll(async () => {
  // No JWT_SECRET: the peer reads the generated one from the same DATA_DIR, as a deployment shares it.
  a = await startServer({ RATE_LIMIT_MAX: '4', RATE_LIMIT_REFRESH_MAX: '4' });
  b = await startPeer(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('rate limits across instances', () => {
  it("count a token's calls on both instances together", async () => {
    const { access_token } = await signIn(a, ADMIN.name, ADMIN.password);
    for (const server of [a, b, a, b]) {
      expect((await server.request('GET', '/api/v1/account', { token: access_token })).status).toBe(200);
    }
    for (const server of [a, b]) {
      const res = await server.request('GET', '/api/v1/account', { token: access_token });
      expect(res.status).toBe(429);
      expect(res.body.errorInfo.code).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it("count an address's refreshes on both instances together", async () => {
    const spray = (server: { request: TestServer['request'] }) =>
      server.request('POST', '/api/v1/refresh', { token: randomBytes(24).toString('base64url') });
    for (const server of [a, b, a, b]) expect((await spray(server)).status).toBe(401);
    expect((await spray(a)).status).toBe(429);
    expect((await spray(b)).status).toBe(429);
  });
});
