import { describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../session/session-store.ts';
import { SESSION_KEYS, createMemoryStorage } from '../session/session-storage.ts';
import { makeAccessToken } from '../session/test-tokens.ts';
import { createTokenRefresher } from '../session/token-refresher.ts';
import { createApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import type { Notifier } from './notifier.ts';

const OLD = makeAccessToken(Date.now(), 600_000, { sub: 'old' });
const NEW = makeAccessToken(Date.now(), 600_000, { sub: 'new' });

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A signed-in session, a recording notifier, and a client over `handler` as the network. */
function setup(
  handler: (url: string, init: RequestInit) => Promise<Response> | Response,
  pageIsLeaving?: () => boolean,
) {
  const storage = createMemoryStorage();
  const session = new SessionStore(storage);
  session.signIn({ accessToken: OLD, refreshToken: 'refresh-1', username: 'alice', entity: 'acme' });
  const notices: string[][] = [];
  const notifier: Notifier = {
    error: (title, message) => notices.push(message === undefined ? ['error', title] : ['error', title, message]),
    success: (message) => notices.push(['success', message]),
    warning: (message) => notices.push(['warning', message]),
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => handler(String(input), init));
  const refresher = createTokenRefresher({ fetch, session });
  const client = createApiClient({ fetch, session, refresher, notifier, pageIsLeaving });
  return { client, fetch, session, storage, notices };
}

const bearerOf = (init: RequestInit) => new Headers(init.headers).get('Authorization');
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('401 recovery', () => {
  it('makes ONE refresh for 10 concurrent 401s and retries each call once', async () => {
    const calls = new Map<string, number>();
    const { client, fetch, session } = setup(async (url, init) => {
      if (url === '/api/v1/refresh') {
        expect(bearerOf(init)).toBe('Bearer refresh-1');
        await tick();
        return json(200, { access_token: NEW, refresh_token: 'refresh-2' });
      }
      calls.set(url, (calls.get(url) ?? 0) + 1);
      await tick();
      return bearerOf(init) === `Bearer ${NEW}` ? json(200, { url }) : json(401, {});
    });

    const urls = Array.from({ length: 10 }, (_, i) => `device/d${i}`);
    const results = await Promise.all(urls.map((url) => client.get<{ url: string }>(url)));

    expect(results.map((r) => r.url)).toEqual(urls.map((url) => `/api/v1/${url}`));
    expect(fetch.mock.calls.filter(([input]) => input === '/api/v1/refresh')).toHaveLength(1);
    for (const url of urls) expect(calls.get(`/api/v1/${url}`)).toBe(2);
    expect(session.getSnapshot().accessToken).toBe(NEW);
    expect(session.getSnapshot().refreshToken).toBe('refresh-2');
  });

  it('a 401 on the refresh clears the session and says Authentication error', async () => {
    const { client, session, storage, notices } = setup((url) =>
      url === '/api/v1/refresh' ? json(401, {}) : json(401, {}),
    );
    const results = await Promise.allSettled([client.get('account'), client.get('device')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(401);
    }
    expect(session.getSnapshot().status).toBe('signed-out');
    expect(session.getSnapshot().signOutReason).toBe('auth-error');
    for (const key of Object.values(SESSION_KEYS)) expect(storage.getItem(key)).toBeNull();
    expect(notices).toEqual([['error', 'Authentication error']]);
  });

  it('a failed refresh (no answer) also signs out with Authentication error', async () => {
    const { client, session, notices } = setup((url) => {
      if (url === '/api/v1/refresh') throw new TypeError('Failed to fetch');
      return json(401, {});
    });
    await expect(client.get('account')).rejects.toBeInstanceOf(ApiError);
    expect(session.getSnapshot().status).toBe('signed-out');
    expect(notices).toEqual([['error', 'Authentication error']]);
  });

  it('keeps the session and stays quiet when the page unloading cancels the calls (a reload)', async () => {
    const { client, session, storage, notices } = setup(
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => true,
    );
    await expect(client.get('account')).rejects.toBeInstanceOf(ApiError);
    const cancelledRefresh = setup(
      (url) => {
        if (url === '/api/v1/refresh') throw new TypeError('Failed to fetch');
        return json(401, {});
      },
      () => true,
    );
    await expect(cancelledRefresh.client.get('account')).rejects.toBeInstanceOf(ApiError);
    for (const kept of [session, cancelledRefresh.session]) expect(kept.getSnapshot().status).toBe('signed-in');
    expect(storage.getItem(SESSION_KEYS.refreshToken)).toBe('refresh-1');
    expect([...notices, ...cancelledRefresh.notices]).toEqual([]);
  });

  it('does not refresh for calls without the access token (login)', async () => {
    const { client, fetch, notices } = setup(() =>
      json(401, { errorInfo: { code: 401, userMessage: 'Bad', developerMessage: 'x' } }),
    );
    const error = await client
      .post('login', { name: 'a', password: 'b' }, { auth: 'none', notify: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(bearerOf(fetch.mock.calls[0]![1]!)).toBeNull();
    expect(notices).toEqual([]);
  });
});

describe('error mapping', () => {
  it('shows Network error when no response arrives', async () => {
    const { client, notices } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await client.get('device').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
    expect((error as ApiError).isNetworkError).toBe(true);
    expect(notices).toEqual([['error', 'Network error']]);
  });

  it('shows the user and developer message of an error envelope', async () => {
    const envelope = {
      errorInfo: {
        code: 409,
        userMessage: 'Name taken',
        developerMessage: 'unique violation',
        details: { name: ['dup'] },
      },
    };
    const { client, notices } = setup(() => json(409, envelope));
    const error = (await client.post('account', { document: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 409,
      userMessage: 'Name taken',
      developerMessage: 'unique violation',
    });
    expect(error.details).toEqual({ name: ['dup'] });
    expect(notices).toEqual([['error', 'Name taken', 'unique violation']]);
  });

  it('stays silent when the caller opts out of notices', async () => {
    const { client, notices } = setup(() =>
      json(429, { errorInfo: { code: 429, userMessage: 'Slow down', developerMessage: 'rate' } }),
    );
    const error = (await client.get('device', { notify: false }).catch((e: unknown) => e)) as ApiError;
    expect(error.userMessage).toBe('Slow down');
    expect(error.notified).toBe(false);
    expect(notices).toEqual([]);
  });
});

describe('requests', () => {
  it('sends the bearer, JSON body, query and tenant prefix', async () => {
    const { client, fetch } = setup(() => new Response(null, { status: 204 }));
    await client.put(
      client.tenant('device/d 1'),
      { operator: { $set: { a: 1 } } },
      { query: { limit: 0, offset: 0, x: undefined } },
    );
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/v1/tenant/acme/device/d 1?limit=0&offset=0');
    expect(init!.method).toBe('PUT');
    expect(bearerOf(init!)).toBe(`Bearer ${OLD}`);
    expect(new Headers(init!.headers).get('Content-Type')).toBe('application/json');
    expect(init!.body).toBe(JSON.stringify({ operator: { $set: { a: 1 } } }));
  });

  it('validates answers with the given parser', async () => {
    const { client } = setup(() => json(200, { status: 'created' }));
    const parse = vi.fn((data: unknown) => data as { status: string });
    await expect(client.post('account', {}, { parse })).resolves.toEqual({ status: 'created' });
    expect(parse).toHaveBeenCalledOnce();
  });
});
