import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDevice } from '../helpers/devices.ts';
import { addAccount, deviceInSession, openLive, permanentToken, type Live } from '../helpers/live.ts';
import { startPeer } from '../helpers/server.ts';
import { startForUploads } from '../helpers/uploads.ts';

/**
 * Two API instances on one PostgreSQL and one Redis: a socket and an event stream held on
 * instance A end when their right is taken away through instance B.
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL || !process.env.MQTT_URL) {
  throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
}

let a: Awaited<ReturnType<typeof startForUploads>>['s'];
let b: Awaited<ReturnType<typeof startPeer>>;
let root = '';
let ENTITY = '';
let admin = '';
let device = '';
const devices: TestDevice[] = [];
const opened: Live[] = [];

beforeAll(async () => {
  let tokens: Record<string, string>;
  ({ s: a, root, acme: ENTITY, tokens } = await startForUploads({ PROVISION_TIMEOUT_MS: '3600000' }));
  b = await startPeer(a);
  admin = tokens.admin!;
  const d = await deviceInSession(a, admin, ENTITY);
  devices.push(d);
  device = d.name;
});
afterAll(async () => {
  for (const l of opened) l.close();
  await Promise.all(devices.map((d) => d.close()));
  await b?.close();
  await a?.close();
});

const onA = async (token: string, entity = ENTITY, dev = device) => {
  const l = await openLive(a, token, entity, dev);
  opened.push(l);
  return l;
};

describe('live connections across instances', () => {
  it('a permanent token revoked on B ends its socket and stream on A', async () => {
    const owner = await addAccount(a, root, ENTITY);
    const pt = await permanentToken(a, ENTITY, owner);
    const bystander = await onA(admin);
    const mine = await onA(pt.token);
    const revoked = await b.request('DELETE', `/api/v1/tenant/${ENTITY}/account/${owner.name}/token/${pt.token_hash}`, {
      token: owner.access_token,
    });
    expect(revoked.status, revoked.text).toBeLessThan(300);
    expect(await mine.ended()).toEqual({ reason: 'revoked', disconnect: 'io server disconnect' });
    expect(bystander.isOpen()).toBe(true);
  });

  it('a logout on B ends the session’s connections on A', async () => {
    const owner = await addAccount(a, root, ENTITY);
    const ending = await onA(owner.access_token);
    expect((await b.request('POST', '/api/v1/logout', { token: owner.refresh_token })).status).toBe(204);
    expect((await ending.ended()).reason).toBe('revoked');
  });

  it('an entity deleted on B ends a landlord’s connections that follow it on A', async () => {
    const doomed = `${ENTITY}_doomed`;
    await a.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: doomed, description: '' } } },
    });
    const member = await addAccount(a, root, doomed);
    const d = await deviceInSession(a, member.access_token, doomed);
    devices.push(d);
    const landlords = await onA(root, doomed, d.name);
    const theirs = await onA(member.access_token, doomed, d.name);
    expect((await b.request('DELETE', `/api/v1/tenant/${doomed}`, { token: root })).status).toBe(200);
    for (const l of [landlords, theirs]) expect((await l.ended()).reason).toBe('revoked');
  });
});
