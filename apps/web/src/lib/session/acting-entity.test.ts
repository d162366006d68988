import { describe, expect, it, vi } from 'vitest';
import { createApiClient, NO_ENTITY_OPEN } from '../api/api-client.ts';
import { createTokenRefresher } from './token-refresher.ts';
import { ACTING_ENTITY_KEY, ActingEntityStore, activeEntityOf } from './acting-entity.ts';
import { SessionStore } from './session-store.ts';
import { createMemoryStorage } from './session-storage.ts';
import { makeAccessToken } from './test-tokens.ts';

/** A session signed in as a superadmin (entity 'landlord') or an entity admin, a store and a client. */
function setup(subtype: 'sadmin' | 'admin') {
  const session = new SessionStore(createMemoryStorage());
  const entity = subtype === 'sadmin' ? 'landlord' : 'acme';
  const token = makeAccessToken(Date.now(), 600_000, { subtype, entity: subtype === 'sadmin' ? null : 'acme' });
  session.signIn({ accessToken: token, refreshToken: 'r', username: 'root', entity });
  const storage = createMemoryStorage();
  const acting = new ActingEntityStore(storage);
  const fetch = vi.fn();
  const client = createApiClient({
    fetch,
    session,
    refresher: createTokenRefresher({ fetch, session }),
    notifier: { error: vi.fn(), success: vi.fn(), warning: vi.fn() },
    activeEntity: () => activeEntityOf(session.getSnapshot(), acting.get()),
  });
  return { session, storage, acting, client };
}

describe("a superadmin's tenant paths", () => {
  it('go to the entity it opened, never to the landlord scope or an empty entity', () => {
    const { client, acting } = setup('sadmin');
    expect(() => client.tenant('dataview')).toThrow(NO_ENTITY_OPEN);
    acting.set('globex');
    expect(client.tenant('dataview')).toBe('tenant/globex/dataview');
    acting.set('');
    expect(() => client.tenant('dataview')).toThrow(NO_ENTITY_OPEN);
  });

  it("leave everyone else's at their own entity, whatever the tab holds", () => {
    const { client, acting } = setup('admin');
    acting.set('globex');
    expect(client.tenant('site')).toBe('tenant/acme/site');
  });
});

describe('the acting entity', () => {
  it('is kept in the tab storage, survives a reload and tells its listeners once a change', () => {
    const { acting, storage } = setup('sadmin');
    const heard = vi.fn();
    acting.subscribe(heard);
    acting.set('acme');
    acting.set('acme');
    expect(heard).toHaveBeenCalledOnce();
    expect(storage.getItem(ACTING_ENTITY_KEY)).toBe('acme');
    expect(new ActingEntityStore(storage).get()).toBe('acme');
    acting.set(null);
    expect(storage.getItem(ACTING_ENTITY_KEY)).toBeNull();
    expect(new ActingEntityStore(storage).get()).toBeNull();
  });

  it('is nothing once signed out', () => {
    const { session, acting } = setup('sadmin');
    acting.set('acme');
    expect(activeEntityOf(session.getSnapshot(), acting.get())).toBe('acme');
    session.signOut('logout');
    expect(activeEntityOf(session.getSnapshot(), acting.get())).toBeNull();
  });
});
