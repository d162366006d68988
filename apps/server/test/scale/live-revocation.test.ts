import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, permanentToken, startLiveFixture, type LiveFixture } from '../helpers/live.ts';
import { startPeer } from '../helpers/server.ts';

/**
 * Two API instances on one PostgreSQL and one Redis: a socket and an event stream held on
 * instance A end when their right is taken away through instance B.
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL || !process.env.MQTT_URL) {
  throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
}

let f: LiveFixture;
let b: Awaited<ReturnType<typeof startPeer>>;

beforeAll(async () => {
  f = await startLiveFixture();
  b = await startPeer(f.s);
});
afterAll(async () => {
  await b?.close();
  await f?.close();
});

describe('live connections across instances', () => {
  it('a permanent token revoked on B ends its socket and stream on A', async () => {
    const owner = await addAccount(f.s, f.root, f.entity);
    const pt = await permanentToken(f.s, f.entity, owner);
    const bystander = await f.live(f.admin);
    const onA = await f.live(pt.token);
    const path = `/api/v1/tenant/${f.entity}/account/${owner.name}/token/${pt.token_hash}`;
    const revoked = await b.request('DELETE', path, { token: owner.access_token });
    expect(revoked.status, revoked.text).toBeLessThan(300);
    expect(await onA.ended()).toEqual({ reason: 'revoked', disconnect: 'io server disconnect' });
    expect(bystander.isOpen()).toBe(true);
  });

  it('a logout on B ends the session’s connections on A', async () => {
    const owner = await addAccount(f.s, f.root, f.entity);
    const onA = await f.live(owner.access_token);
    expect((await b.request('POST', '/api/v1/logout', { token: owner.refresh_token })).status).toBe(204);
    expect((await onA.ended()).reason).toBe('revoked');
  });

  it('an entity deleted on B ends its connections on A, a landlord’s too', async () => {
    const doomed = `${f.entity}_doomed`;
    const body = { document: { name: { name: doomed, description: '' } } };
    expect((await f.s.request('POST', '/api/v1/tenant', { token: f.root, body })).status).toBe(201);
    const member = await addAccount(f.s, f.root, doomed);
    const d = await f.inSession(member.access_token, doomed);
    const landlords = await f.live(f.root, { entity: doomed, device: d.name });
    const theirs = await f.live(member.access_token, { entity: doomed, device: d.name });
    expect((await b.request('DELETE', `/api/v1/tenant/${doomed}`, { token: f.root })).status).toBe(200);
    for (const l of [landlords, theirs]) expect((await l.ended()).reason).toBe('revoked');
  });
});
