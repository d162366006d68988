import { describe, expect, it, vi } from 'vitest';
import { SessionStore } from './session-store.ts';
import { SESSION_KEYS, createMemoryStorage } from './session-storage.ts';
import { makeAccessToken } from './test-tokens.ts';

const A1 = makeAccessToken(Date.now(), 600_000, { sub: 'alice' });
const A2 = makeAccessToken(Date.now(), 600_000, { sub: 'alice', iat: 2 });
const B1 = makeAccessToken(Date.now(), 600_000, { sub: 'bob' });
const values = { accessToken: A1, refreshToken: 'r1', username: 'alice', entity: 'acme' };
const account = {
  name: 'alice',
  email: 'a@example.com',
  subtype: 'admin' as const,
  entity: 'acme',
  access: ['all'],
  created_at: '',
  updated_at: '',
  _entity: { name: 'acme', description: '' },
};

describe('session store', () => {
  it('stores the four values on sign-in and restores them in a new store', () => {
    const storage = createMemoryStorage();
    new SessionStore(storage).signIn(values);
    expect(storage.getItem(SESSION_KEYS.accessToken)).toBe(A1);
    expect(storage.getItem(SESSION_KEYS.refreshToken)).toBe('r1');
    expect(storage.getItem(SESSION_KEYS.username)).toBe('alice');
    expect(storage.getItem(SESSION_KEYS.entity)).toBe('acme');
    const restored = new SessionStore(storage).getSnapshot();
    expect(restored).toMatchObject({ status: 'signed-in', username: 'alice', entity: 'acme' });
    expect(restored.claims?.subtype).toBe('admin');
  });

  it('clears all four values on sign-out and tells listeners why', () => {
    const storage = createMemoryStorage();
    const store = new SessionStore(storage);
    store.signIn(values);
    const listener = vi.fn();
    store.subscribe(listener);
    store.signOut('logout');
    for (const key of Object.values(SESSION_KEYS)) expect(storage.getItem(key)).toBeNull();
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-out', signOutReason: 'logout', accessToken: null });
    expect(listener).toHaveBeenCalledWith('sign-out', store.getSnapshot());
  });

  it('refuses an unreadable access token', () => {
    const store = new SessionStore(createMemoryStorage());
    expect(store.signIn({ ...values, accessToken: 'garbage' })).toBe(false);
    expect(store.getSnapshot().status).toBe('signed-out');
  });

  it('keeps the account across a token refresh', () => {
    const store = new SessionStore(createMemoryStorage());
    store.signIn(values);
    store.setAccount(account);
    store.setTokens(A2, 'r2');
    expect(store.getSnapshot()).toMatchObject({ accessToken: A2, refreshToken: 'r2', account });
  });

  it('adopts what another tab stored: a refresh, a different user, a sign-out', () => {
    const storage = createMemoryStorage();
    const store = new SessionStore(storage);
    store.signIn(values);
    store.setAccount(account);
    const other = new SessionStore(storage);

    other.setTokens(A2, 'r2');
    store.adoptStored();
    expect(store.getSnapshot()).toMatchObject({ accessToken: A2, refreshToken: 'r2', account });

    other.signIn({ accessToken: B1, refreshToken: 'rb', username: 'bob', entity: 'acme' });
    store.adoptStored();
    expect(store.getSnapshot()).toMatchObject({ username: 'bob', account: null });

    other.signOut('logout');
    store.adoptStored();
    expect(store.getSnapshot()).toMatchObject({ status: 'signed-out', signOutReason: 'other-tab' });
  });
});
