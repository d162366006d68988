import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { createLocalBus } from '../lib/bus.ts';
import { unauthorized } from '../lib/http-error.ts';
import { hashToken } from '../lib/tokens.ts';
import { LiveConnections } from './live-connections.ts';

const claims = (o: Partial<AccessClaims> = {}): AccessClaims => ({
  sub: 'ada',
  entity: 'acme',
  subtype: 'admin',
  permissions: ['all'],
  typ: 'access',
  fam: 'fam-1',
  iat: 0,
  exp: Number.MAX_SAFE_INTEGER,
  ...o,
});

describe('LiveConnections', () => {
  const valid = new Set<string>();
  let bus = createLocalBus();
  let live: LiveConnections;

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    valid.clear();
    bus = createLocalBus();
    live = new LiveConnections({
      bus,
      verify: async (token) => {
        if (!valid.has(token)) throw unauthorized();
        return claims();
      },
      entityExists: async () => true,
      recheckMs: 60_000,
      onError: (err) => {
        throw err;
      },
    });
  });
  afterEach(() => {
    live.close();
    vi.useRealTimers();
  });

  it('ends a connection at its access token’s exp, not before', async () => {
    valid.add('jwt');
    const end = vi.fn();
    live.watch({ token: 'jwt', claims: claims({ exp: 30 }), entity: 'acme' }, end);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(end).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(end).toHaveBeenCalledExactlyOnceWith('token_expired');
  });

  it('ends, at the next re-check, a connection whose revocation it never heard of', async () => {
    valid.add('pt_a');
    const end = vi.fn();
    live.watch({ token: 'pt_a', claims: claims({ fam: undefined }), entity: 'acme' }, end);
    await vi.advanceTimersByTimeAsync(1);
    valid.delete('pt_a');
    await vi.advanceTimersByTimeAsync(59_998);
    expect(end).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(end).toHaveBeenCalledExactlyOnceWith('revoked');
    expect(live.size).toBe(0);
  });

  it('ends on the bus’s word at once: a family, a permanent token, an entity', async () => {
    for (const t of ['jwt', 'pt_b', 'jwt-landlord']) valid.add(t);
    const [byFamily, byToken, byEntity] = [vi.fn(), vi.fn(), vi.fn()];
    live.watch({ token: 'jwt', claims: claims(), entity: 'acme' }, byFamily);
    live.watch({ token: 'pt_b', claims: claims({ fam: undefined }), entity: 'acme' }, byToken);
    live.watch({ token: 'jwt-landlord', claims: claims({ fam: 'fam-2' }), entity: 'globex' }, byEntity);
    await vi.advanceTimersByTimeAsync(1);
    await bus.publish('families.revoked', { ids: ['fam-1'] });
    valid.delete('pt_b');
    await bus.publish('tokens.changed', { hashes: [hashToken('pt_b')] });
    await bus.publish('entities.removed', { names: ['globex'] });
    await vi.advanceTimersByTimeAsync(1);
    for (const end of [byFamily, byToken, byEntity]) expect(end).toHaveBeenCalledExactlyOnceWith('revoked');
  });

  it('forgets a connection closed by its client', async () => {
    valid.add('jwt');
    const end = vi.fn();
    const unwatch = live.watch({ token: 'jwt', claims: claims({ exp: 30 }), entity: 'acme' }, end);
    unwatch();
    await bus.publish('families.revoked', { ids: ['fam-1'] });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(end).not.toHaveBeenCalled();
    expect(live.size).toBe(0);
  });
});
