import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens } from '../../src/lib/tokens.ts';
import { connectBeacons } from '../helpers/beacons.ts';
import type { TestDevice } from '../helpers/devices.ts';
import { addAccount, deviceInSession, openLive, permanentToken, type Live } from '../helpers/live.ts';
import type { TestServer } from '../helpers/server.ts';
import { claimsOf, signIn } from '../helpers/session.ts';
import { JWT_SECRET, startForUploads } from '../helpers/uploads.ts';

/**
 * A `/beacon-demo` socket and a provisioning event stream live only as long as their right: they
 * end when the permanent token they were opened with is revoked, its account or entity deleted,
 * its session ended, or the access token expires; others go on. A socket that floods is cut.
 */
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let admin = '';
const devices: TestDevice[] = [];
const opened: Live[] = [];
let device = '';

beforeAll(async () => {
  // Sessions that never time out on their own: only a lapsed right ends their streams.
  let tokens: Record<string, string>;
  ({ s, root, acme: ACME, globex: GLOBEX, tokens } = await startForUploads({ PROVISION_TIMEOUT_MS: '3600000' }));
  admin = tokens.admin!;
  const d = await deviceInSession(s, admin, ACME);
  devices.push(d);
  device = d.name;
});
afterAll(async () => {
  for (const l of opened) l.close();
  await Promise.all(devices.map((d) => d.close()));
  await s?.close();
});

const live = async (token: string, entity = ACME, dev = device) => {
  const l = await openLive(s, token, entity, dev);
  opened.push(l);
  return l;
};

describe('live connections end with their right', () => {
  it('a permanent token revoked: its socket and stream end, REST answers 401, others go on', async () => {
    const owner = await addAccount(s, root, ACME);
    const pt = await permanentToken(s, ACME, owner);
    const bystander = await live(admin);
    const mine = await live(pt.token);
    const revoked = await s.request('DELETE', `/api/v1/tenant/${ACME}/account/${owner.name}/token/${pt.token_hash}`, {
      token: owner.access_token,
    });
    expect(revoked.status, revoked.text).toBeLessThan(300);
    expect(await mine.ended()).toEqual({ reason: 'revoked', disconnect: 'io server disconnect' });
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/account`, { token: pt.token })).status).toBe(401);
    expect(bystander.isOpen()).toBe(true);
    await expect(connectBeacons(s.url, { token: pt.token })).rejects.toThrow();
  });

  it('an account deleted: the connections of its sessions and of its permanent tokens end', async () => {
    const owner = await addAccount(s, root, ACME);
    const pt = await permanentToken(s, ACME, owner);
    const bySession = await live(owner.access_token);
    const byToken = await live(pt.token);
    expect((await s.request('DELETE', `/api/v1/tenant/${ACME}/account/${owner.name}`, { token: root })).status).toBe(
      200,
    );
    for (const l of [bySession, byToken]) expect((await l.ended()).reason).toBe('revoked');
  });

  it('an entity deleted: its members’ connections end, and a landlord’s that follow it', async () => {
    const doomed = `${GLOBEX}_doomed`;
    await s.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: doomed, description: '' } } },
    });
    const member = await addAccount(s, root, doomed);
    const d = await deviceInSession(s, member.access_token, doomed);
    devices.push(d);
    const theirs = await live(member.access_token, doomed, d.name);
    const landlords = await live(root, doomed, d.name);
    const elsewhere = await live(root);
    expect((await s.request('DELETE', `/api/v1/tenant/${doomed}`, { token: root })).status).toBe(200);
    for (const l of [theirs, landlords]) expect((await l.ended()).reason).toBe('revoked');
    expect(elsewhere.isOpen()).toBe(true);
  });

  it('a session logged out: its connections end, not those of the account’s other session', async () => {
    const owner = await addAccount(s, root, ACME);
    const other = await signIn(s, owner.name, 'password-1');
    const ending = await live(owner.access_token);
    const staying = await live(other.access_token);
    expect((await s.request('POST', '/api/v1/logout', { token: owner.refresh_token })).status).toBe(204);
    expect((await ending.ended()).reason).toBe('revoked');
    expect(staying.isOpen()).toBe(true);
  });

  it('an access token expired: its connections end at its exp, and a renewed token opens them again', async () => {
    const owner = await addAccount(s, root, ACME);
    // The same session's claims, signed to live 2 s (the configured minimum is 30 s).
    const { sub, entity, subtype, permissions, fam } = claimsOf(owner.access_token);
    const short = await new AccessTokens(JWT_SECRET, 2).sign({ sub, entity, subtype, permissions, fam });
    const expiring = await live(short);
    const longer = await live(owner.access_token);
    expect(await expiring.ended()).toEqual({ reason: 'token_expired', disconnect: 'io server disconnect' });
    expect(Date.now()).toBeGreaterThanOrEqual(claimsOf(short).exp * 1000 - 20);
    expect(longer.isOpen()).toBe(true);
    const renewed = await s.request('POST', '/api/v1/refresh', { token: owner.refresh_token });
    expect((await live(renewed.body.access_token)).isOpen()).toBe(true);
  });
});

describe('a socket that floods', () => {
  it('is cut once it sends faster than its budget, while a quiet one stays', async () => {
    const quiet = await connectBeacons(s.url, { token: admin });
    const noisy = await connectBeacons(s.url, { token: admin });
    const cut = new Promise<string>((resolve) => noisy.socket.once('disconnect', resolve));
    for (let i = 0; i < 5_000 && noisy.socket.connected; i++) noisy.socket.emit('beacon_event', { i });
    expect(await cut).toBe('transport close');
    expect(s.app.beacons.socket.floods()).toBe(1);
    expect(quiet.socket.connected).toBe(true);
    quiet.close();
  });
});
