import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startPeer, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * Two API instances on one PostgreSQL database and one Redis: what one instance revokes, the
 * other refuses at once (scale mode only: `npm run test:scale` with DATABASE_URL and REDIS_URL).
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  throw new Error('The scale suite needs DATABASE_URL and REDIS_URL (see scripts/ci/with-services.sh)');
}

let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;

beforeAll(async () => {
  a = await startServer({ JWT_SECRET: 'scale-test-secret-shared-by-both-instances-0123' });
  b = await startPeer(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const whoami = (server: { request: TestServer['request'] }, token: string) =>
  server.request('GET', '/api/v1/account/admin', { token });

describe('several API instances', () => {
  it('accepts on one instance a session started on the other', async () => {
    const { access_token, refresh_token } = await signIn(a, ADMIN.name, ADMIN.password);
    expect((await whoami(b, access_token)).status).toBe(200);
    const next = await b.request('POST', '/api/v1/refresh', { token: refresh_token });
    expect(next.status).toBe(200);
    expect((await whoami(a, next.body.access_token)).status).toBe(200);
  });

  it('refuses at once on instance A a session logged out on instance B', async () => {
    const { access_token, refresh_token } = await signIn(a, ADMIN.name, ADMIN.password);
    expect((await whoami(a, access_token)).status).toBe(200); // now cached as active on A
    await b.request('POST', '/api/v1/logout', { token: refresh_token });
    await expect.poll(async () => (await whoami(a, access_token)).status, { timeout: 1_000, interval: 20 }).toBe(401);
  });

  it('refuses at once on instance B a permanent token revoked on instance A', async () => {
    const root = (await signIn(a, ADMIN.name, ADMIN.password)).access_token;
    const { token, token_hash } = (await a.request('GET', '/api/v1/account/admin/permanent-token', { token: root }))
      .body;
    expect((await whoami(b, token)).status).toBe(200); // now cached on B
    await a.request('DELETE', `/api/v1/account/admin/token/${token_hash}`, { token: root });
    await expect.poll(async () => (await whoami(b, token)).status, { timeout: 1_000, interval: 20 }).toBe(401);
  });

  it('refuses at once on instance B the users of an entity deleted on instance A', async () => {
    const root = (await signIn(a, ADMIN.name, ADMIN.password)).access_token;
    await a.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: 'acme', description: '' } } },
    });
    await a.request('POST', '/api/v1/account', {
      token: root,
      body: {
        document: {
          name: 'boss',
          email: 'b@acme.test',
          password: 'password-1',
          subtype: 'admin',
          entity: 'acme',
          access: ['all'],
        },
      },
    });
    const boss = (await signIn(b, 'boss', 'password-1')).access_token;
    expect((await b.request('GET', '/api/v1/tenant/acme/account', { token: boss })).status).toBe(200);
    await a.request('DELETE', '/api/v1/tenant/acme', { token: root });
    await expect
      .poll(async () => (await b.request('GET', '/api/v1/tenant/acme/account', { token: boss })).status, {
        timeout: 1_000,
        interval: 20,
      })
      .toBe(401);
  });
});
