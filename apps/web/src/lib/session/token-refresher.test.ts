import { describe, expect, it, vi } from 'vitest';
import { SessionStore } from './session-store.ts';
import { SESSION_KEYS, createMemoryStorage } from './session-storage.ts';
import { makeAccessToken } from './test-tokens.ts';
import { RefreshError, createTokenRefresher, type LockRunner } from './token-refresher.ts';

const A1 = makeAccessToken(Date.now(), 600_000, { sub: 'a1' });
const A2 = makeAccessToken(Date.now(), 600_000, { sub: 'a2' });

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

function setup(answer: () => Response | Promise<Response>, locks?: LockRunner) {
  const storage = createMemoryStorage();
  const session = new SessionStore(storage);
  session.signIn({ accessToken: A1, refreshToken: 'r1', username: 'alice', entity: 'acme' });
  const fetch = vi.fn(async () => answer());
  return { storage, session, fetch, refresher: createTokenRefresher({ fetch, session, locks }) };
}

describe('token refresher', () => {
  it('rotates the pair with the refresh token as bearer', async () => {
    const { refresher, session, fetch } = setup(() => json(200, { access_token: A2, refresh_token: 'r2' }));
    await expect(refresher.refresh()).resolves.toBe('refreshed');
    const init = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init[0]).toBe('/api/v1/refresh');
    expect(new Headers(init[1].headers).get('Authorization')).toBe('Bearer r1');
    expect(session.getSnapshot()).toMatchObject({ accessToken: A2, refreshToken: 'r2' });
  });

  it('shares one attempt between concurrent callers', async () => {
    const { refresher, fetch } = setup(() => json(200, { access_token: A2, refresh_token: 'r2' }));
    await Promise.all([refresher.refresh(), refresher.refresh(), refresher.refresh()]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('runs inside the fleet-refresh lock and adopts a pair another tab stored meanwhile', async () => {
    const lockNames: string[] = [];
    let storageRef: ReturnType<typeof createMemoryStorage> | null = null;
    const locks: LockRunner = {
      request: async (name, callback) => {
        lockNames.push(name);
        // While we waited for the lock, another tab rotated the pair.
        storageRef!.setItem(SESSION_KEYS.refreshToken, 'r2-other-tab');
        storageRef!.setItem(SESSION_KEYS.accessToken, A2);
        return callback();
      },
    };
    const { refresher, session, fetch, storage } = setup(() => json(500, {}), locks);
    storageRef = storage;
    await expect(refresher.refresh()).resolves.toBe('adopted');
    expect(lockNames).toEqual(['fleet-refresh']);
    expect(fetch).not.toHaveBeenCalled();
    expect(session.getSnapshot()).toMatchObject({ accessToken: A2, refreshToken: 'r2-other-tab' });
  });

  it('reports a refused refresh token as fatal and other failures as transient', async () => {
    const refused = setup(() => json(401, {}));
    await expect(refused.refresher.refresh()).rejects.toMatchObject({ fatal: true, status: 401 });
    const down = setup(() => json(503, {}));
    await expect(down.refresher.refresh()).rejects.toMatchObject({ fatal: false, status: 503 });
    const offline = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await offline.refresher.refresh().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefreshError);
    expect(error).toMatchObject({ fatal: false, status: 0 });
  });
});
