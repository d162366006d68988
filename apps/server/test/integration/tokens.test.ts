import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, randomDeviceId } from '../helpers/devices.ts';
import { ADMIN, type TestServer } from '../helpers/server.ts';
import { sharedServer } from '../helpers/shared-server.ts';
import { signIn } from '../helpers/session.ts';

// On the worker's shared server (helpers/shared-server.ts), under an entity and account of its own.
const TAG = randomDeviceId().slice(0, 6);
const [ACME, DEV] = [`acme_${TAG}`, `dev_${TAG}`];
let s: TestServer;
let root = '';
let dev = { access_token: '', refresh_token: '' };

beforeAll(async () => {
  s = await sharedServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  await s.request('POST', '/api/v1/tenant', {
    token: root,
    body: { document: { name: { name: ACME, description: '' } } },
  });
  await s.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: { name: DEV, email: 'd@acme.test', password: 'password-1', subtype: 'developer', entity: ACME },
    },
  });
  dev = await signIn(s, DEV, 'password-1');
});
afterAll(async () => s?.close());

const generate = (description = '') =>
  s.request(
    'GET',
    `/api/v1/tenant/${ACME}/account/${DEV}/permanent-token?description=${encodeURIComponent(description)}`,
    {
      token: dev.access_token,
    },
  );

describe('permanent tokens', () => {
  it('shows the value once, with ≥ 128 random bits, and lists only hashes', async () => {
    const res = await generate('CI pipeline');
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^pt_[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({
      description: 'CI pipeline',
      last_used: null,
      token_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const list = await s.request('GET', `/api/v1/tenant/${ACME}/account/${DEV}/tokens`, { token: dev.access_token });
    expect(list.body.tokens).toEqual([
      expect.objectContaining({ token_hash: res.body.token_hash, description: 'CI pipeline' }),
    ]);
    expect(list.text).not.toContain(res.body.token);
  });

  it("acts with its account's rights and records its last use", async () => {
    const { token, token_hash } = (await generate()).body;
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/account`, { token })).status).toBe(200);
    expect(
      (
        await s.request('POST', `/api/v1/tenant/${ACME}/account`, {
          token,
          body: { document: { name: 'x', email: 'x@x.test', password: 'password-1' } },
        })
      ).status,
    ).toBe(403);
    expect((await s.request('GET', '/api/v1/tenant', { token })).status).toBe(403);
    // The last use is written after the answer, without holding it up: look until it is there.
    await eventually(async () => {
      const list = await s.request('GET', `/api/v1/tenant/${ACME}/account/${DEV}/tokens`, { token: dev.access_token });
      expect(
        list.body.tokens.find((t: { token_hash: string }) => t.token_hash === token_hash).last_used,
      ).not.toBeNull();
    });
  });

  it('can never be used to sign in or to refresh', async () => {
    const { token } = (await generate()).body;
    expect((await s.request('POST', '/api/v1/login', { body: { name: DEV, password: token } })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token })).status).toBe(401);
  });

  it('stops working the moment it is revoked', async () => {
    const { token, token_hash } = (await generate()).body;
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/account`, { token })).status).toBe(200);
    const revoked = await s.request('DELETE', `/api/v1/tenant/${ACME}/account/${DEV}/token/${token_hash}`, {
      token: dev.access_token,
    });
    expect(revoked.body).toEqual({ status: 'Token revoked' });
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/account`, { token })).status).toBe(401);
    expect(
      (
        await s.request('DELETE', `/api/v1/tenant/${ACME}/account/${DEV}/token/${token_hash}`, {
          token: dev.access_token,
        })
      ).status,
    ).toBe(404);
  });

  it("lets the landlord generate one for an entity's account through its own path", async () => {
    const res = await s.request('GET', `/api/v1/tenant/${ACME}/${DEV}/permanent-token`, { token: root });
    expect(res.status).toBe(200);
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/account/${DEV}`, { token: res.body.token })).status).toBe(
      200,
    );
    expect((await s.request('GET', `/api/v1/tenant/other_${TAG}/${DEV}/permanent-token`, { token: root })).status).toBe(
      404,
    );
  });

  it('refuses an over-long description', async () => {
    expect((await generate('x'.repeat(201))).status).toBe(400);
  });
});
