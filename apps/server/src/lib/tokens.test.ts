import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens, hashToken, newOpaqueToken } from './tokens.ts';

const claims = { sub: 'alice', entity: 'acme', subtype: 'admin' as const, permissions: ['all'] };

afterEach(() => vi.useRealTimers());

describe('access tokens', () => {
  it('verifies what it signed, with typ access and the given claims', async () => {
    const t = new AccessTokens('s'.repeat(40), 60);
    const verified = await t.verify(await t.sign(claims));
    expect(verified).toMatchObject({ ...claims, typ: 'access' });
    expect(verified!.exp - verified!.iat).toBe(60);
  });

  it('stops accepting a cached token once it expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t = new AccessTokens('s'.repeat(40), 60);
    const token = await t.sign(claims);
    expect(await t.verify(token)).toBeDefined();
    vi.setSystemTime(Date.now() + 61_000);
    expect(await t.verify(token)).toBeUndefined();
  });

  it('refuses a token from another secret', async () => {
    const a = new AccessTokens('a'.repeat(40), 60);
    const b = new AccessTokens('b'.repeat(40), 60);
    expect(await b.verify(await a.sign(claims))).toBeUndefined();
  });

  it('keeps the verification cache bounded', async () => {
    const t = new AccessTokens('s'.repeat(40), 60, 2);
    const tokens = await Promise.all(['a', 'b', 'c'].map((sub) => t.sign({ ...claims, sub })));
    for (const token of tokens) await t.verify(token);
    expect((t as unknown as { cache: Map<string, unknown> }).cache.size).toBe(2);
  });
});

describe('opaque tokens', () => {
  it('carry 256 random bits and are stored as a SHA-256 hash', () => {
    const a = newOpaqueToken('rt');
    expect(a).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    expect(newOpaqueToken('rt')).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});
