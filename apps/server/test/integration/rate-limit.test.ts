import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

/**
 * HTTP rate limits (issue 22): per token, or per address without one, on every API route, and
 * stricter per address on sign-in, refresh, downloads and the kiosk manager. Low limits here;
 * each test speaks from its own addresses (X-Forwarded-For, trusted in this file).
 */
const LIMITS = {
  RATE_LIMIT_MAX: '5',
  RATE_LIMIT_LOGIN_MAX: '3',
  RATE_LIMIT_REFRESH_MAX: '10',
  RATE_LIMIT_DOWNLOAD_MAX: '4',
  RATE_LIMIT_KIOSK_MAX: '2',
  RATE_LIMIT_AUTH_FAILURES_MAX: '3',
  RATE_LIMIT_WINDOW_S: '60',
};
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ ...LIMITS, TRUST_PROXY: 'true' });
});
afterAll(async () => s?.close());

let lastOctet = 0;
/** A client address no other test of this file uses. */
const newAddress = () => `10.22.0.${++lastOctet}`;
const from = (address: string, token?: string) => ({
  ...(token ? { token } : {}),
  headers: { 'x-forwarded-for': address },
});
const randomToken = () => randomBytes(24).toString('base64url');

async function signInFrom(address: string) {
  const res = await s.request('POST', '/api/v1/login', {
    ...from(address),
    body: { name: ADMIN.name, password: ADMIN.password },
  });
  expect(res.status).toBe(200);
  return res.body as { access_token: string; refresh_token: string };
}

/** Asserts the 429 every limit answers: the errorInfo envelope and a Retry-After within the window. */
function expectTooMany(res: Awaited<ReturnType<TestServer['request']>>) {
  expect(res.status).toBe(429);
  expect(res.body.errorInfo).toMatchObject({ code: 429, userMessage: 'Too many requests. Try again later.' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('the API limit', () => {
  it('answers 429 with Retry-After once a token has made its calls, and only to that token', async () => {
    const a = (await signInFrom(newAddress())).access_token;
    const b = (await signInFrom(newAddress())).access_token;
    const address = newAddress();
    for (let i = 0; i < 5; i++) expect((await s.request('GET', '/api/v1/account', from(address, a))).status).toBe(200);
    expectTooMany(await s.request('GET', '/api/v1/account', from(address, a)));
    // The count follows the token to another address; another token at the same address is unaffected.
    expectTooMany(await s.request('GET', '/api/v1/tenant', from(newAddress(), a)));
    expect((await s.request('GET', '/api/v1/account', from(address, b))).status).toBe(200);
  });

  it('counts calls without a token per address', async () => {
    const address = newAddress();
    for (let i = 0; i < 5; i++) expect((await s.request('GET', '/api/v1/account', from(address))).status).toBe(401);
    expectTooMany(await s.request('GET', '/api/v1/account', from(address)));
    expect((await s.request('GET', '/api/v1/account', from(newAddress()))).status).toBe(401);
  });

  it('gives no fresh budget for invented tokens: an address whose new tokens keep failing may bring no more', async () => {
    const address = newAddress();
    for (let i = 0; i < 3; i++) {
      expect((await s.request('GET', '/api/v1/account', from(address, randomToken()))).status).toBe(401);
    }
    expectTooMany(await s.request('GET', '/api/v1/account', from(address, randomToken())));
    expect((await s.request('GET', '/api/v1/account', from(newAddress(), randomToken()))).status).toBe(401);
  });
});

describe('stricter limits', () => {
  it('stop refresh-token spraying from one address; a genuine refresh elsewhere still works', async () => {
    const { refresh_token } = await signInFrom(newAddress());
    const address = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await s.request('POST', '/api/v1/refresh', from(address, randomToken()));
      statuses.push(res.status);
      if (res.status === 429) expectTooMany(res);
    }
    expect(statuses.filter((c) => c === 401)).toHaveLength(10);
    expect(statuses.filter((c) => c === 429)).toHaveLength(190);
    // A refresh token is no key of its own: the genuine one is refused from the spraying address too.
    expectTooMany(await s.request('POST', '/api/v1/refresh', from(address, refresh_token)));
    expect((await s.request('POST', '/api/v1/refresh', from(newAddress(), refresh_token))).status).toBe(200);
  });

  it('limit sign-ins per address, beside the failed sign-in throttle', async () => {
    const address = newAddress();
    for (let i = 0; i < 3; i++) await signInFrom(address);
    expectTooMany(
      await s.request('POST', '/api/v1/login', {
        ...from(address),
        body: { name: ADMIN.name, password: ADMIN.password },
      }),
    );
    await signInFrom(newAddress());
  });

  it('limit signed downloads per address', async () => {
    const address = newAddress();
    const url = '/api/v1/download/file/abc?expires=1&signature=forged';
    for (let i = 0; i < 4; i++) expect((await s.request('GET', url, from(address))).status).toBe(403);
    expectTooMany(await s.request('GET', url, from(address)));
    expect((await s.request('GET', url, from(newAddress()))).status).toBe(403);
  });

  it('limit the kiosk manager per token, apart from the rest of the API', async () => {
    const token = (await signInFrom(newAddress())).access_token;
    const allocate = () =>
      s.request('POST', '/kiosk-manager/v1/kiosk/nowhere/nokiosk/allocate', {
        ...from(newAddress(), token),
        body: { device: 'aabbccddeeff' },
      });
    for (let i = 0; i < 2; i++) expect((await allocate()).status).not.toBe(429);
    expectTooMany(await allocate());
    expect((await s.request('GET', '/api/v1/account', from(newAddress(), token))).status).toBe(200);
  });

  it('are documented: every limited operation lists its 429', async () => {
    const doc = (await s.request('GET', '/api/docs')).body;
    expect(doc.paths['/api/v1/refresh'].post.responses['429']).toBeDefined();
    expect(doc.paths['/api/v1/account'].get.responses['429']).toBeDefined();
    expect(doc.paths['/kiosk-manager/v1/kiosk/{entity}/{kiosk}/allocate'].post.responses['429']).toBeDefined();
  });
});

describe('without TRUST_PROXY', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startServer({ RATE_LIMIT_REFRESH_MAX: '3' });
  });
  afterAll(async () => plain?.close());

  it('a forged X-Forwarded-For is no new address', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await plain.request('POST', '/api/v1/refresh', from(newAddress(), randomToken()));
      expect(res.status).toBe(401);
    }
    const res = await plain.request('POST', '/api/v1/refresh', from(newAddress(), randomToken()));
    expect(res.status).toBe(429);
  });
});
