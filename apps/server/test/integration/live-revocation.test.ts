import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens } from '../../src/lib/tokens.ts';
import { connectBeacons } from '../helpers/beacons.ts';
import { addAccount, permanentToken, startLiveFixture, type LiveFixture } from '../helpers/live.ts';
import { claimsOf, signIn } from '../helpers/session.ts';
import { JWT_SECRET } from '../helpers/uploads.ts';

/**
 * A `/beacon-demo` socket and a provisioning event stream live only as long as their right: they
 * end when the permanent token they were opened with is revoked, its account or entity deleted,
 * its session ended, or the access token expires; others go on. A socket that floods is cut.
 */
let f: LiveFixture;

beforeAll(async () => {
  f = await startLiveFixture();
});
afterAll(async () => f?.close());

describe('live connections end with their right', () => {
  it('a permanent token revoked: its socket and stream end, REST answers 401, others go on', async () => {
    const { s, entity } = f;
    const owner = await addAccount(s, f.root, entity);
    const pt = await permanentToken(s, entity, owner);
    const bystander = await f.live(f.admin);
    const mine = await f.live(pt.token);
    const revoked = await s.request('DELETE', `/api/v1/tenant/${entity}/account/${owner.name}/token/${pt.token_hash}`, {
      token: owner.access_token,
    });
    expect(revoked.status, revoked.text).toBeLessThan(300);
    expect(await mine.ended()).toEqual({ reason: 'revoked', disconnect: 'io server disconnect' });
    expect((await s.request('GET', `/api/v1/tenant/${entity}/account`, { token: pt.token })).status).toBe(401);
    expect(bystander.isOpen()).toBe(true);
    await expect(connectBeacons(s.url, { token: pt.token })).rejects.toThrow();
  });

  it('an account deleted: the connections of its sessions and of its permanent tokens end', async () => {
    const { s, entity } = f;
    const owner = await addAccount(s, f.root, entity);
    const pt = await permanentToken(s, entity, owner);
    const bySession = await f.live(owner.access_token);
    const byToken = await f.live(pt.token);
    const deleted = await s.request('DELETE', `/api/v1/tenant/${entity}/account/${owner.name}`, { token: f.root });
    expect(deleted.status).toBe(200);
    for (const l of [bySession, byToken]) expect((await l.ended()).reason).toBe('revoked');
  });

  it('an entity deleted: its members’ connections end, and a landlord’s that follow it', async () => {
    const { s, root } = f;
    const doomed = `${f.other}_doomed`;
    await s.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: doomed, description: '' } } },
    });
    const member = await addAccount(s, root, doomed);
    const d = await f.inSession(member.access_token, doomed);
    const theirs = await f.live(member.access_token, { entity: doomed, device: d.name });
    const landlords = await f.live(root, { entity: doomed, device: d.name });
    const elsewhere = await f.live(root);
    expect((await s.request('DELETE', `/api/v1/tenant/${doomed}`, { token: root })).status).toBe(200);
    for (const l of [theirs, landlords]) expect((await l.ended()).reason).toBe('revoked');
    expect(elsewhere.isOpen()).toBe(true);
  });

  it('a session logged out: its connections end, not those of the account’s other session', async () => {
    const { s } = f;
    const owner = await addAccount(s, f.root, f.entity);
    const other = await signIn(s, owner.name, 'password-1');
    const ending = await f.live(owner.access_token);
    const staying = await f.live(other.access_token);
    expect((await s.request('POST', '/api/v1/logout', { token: owner.refresh_token })).status).toBe(204);
    expect((await ending.ended()).reason).toBe('revoked');
    expect(staying.isOpen()).toBe(true);
  });

  it('an access token expired: its connections end at its exp, and a renewed token opens them again', async () => {
    const owner = await addAccount(f.s, f.root, f.entity);
    // The same session's claims, signed to live 2 s (the configured minimum is 30 s).
    const { sub, entity, subtype, permissions, fam } = claimsOf(owner.access_token);
    const short = await new AccessTokens(JWT_SECRET, 2).sign({ sub, entity, subtype, permissions, fam });
    const expiring = await f.live(short);
    const longer = await f.live(owner.access_token);
    expect(await expiring.ended()).toEqual({ reason: 'token_expired', disconnect: 'io server disconnect' });
    expect(Date.now()).toBeGreaterThanOrEqual(claimsOf(short).exp * 1000 - 20);
    expect(longer.isOpen()).toBe(true);
    const renewed = await f.s.request('POST', '/api/v1/refresh', { token: owner.refresh_token });
    expect((await f.live(renewed.body.access_token)).isOpen()).toBe(true);
  });
});

describe('a socket that floods', () => {
  it('is cut once it sends faster than its budget, while a quiet one stays', async () => {
    const quiet = await connectBeacons(f.s.url, { token: f.admin });
    const noisy = await connectBeacons(f.s.url, { token: f.admin });
    const cut = new Promise<string>((resolve) => noisy.socket.once('disconnect', resolve));
    for (let i = 0; i < 5_000 && noisy.socket.connected; i++) noisy.socket.emit('beacon_event', { i });
    expect(await cut).toBe('transport close');
    expect(f.s.app.beacons.socket.floods()).toBe(1);
    expect(quiet.socket.connected).toBe(true);
    quiet.close();
  });
});
