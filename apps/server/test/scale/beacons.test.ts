import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconForm, connectBeacons, type BeaconClient } from '../helpers/beacons.ts';
import { connectDevice, registerDevice, type TestDevice } from '../helpers/devices.ts';
import { ADMIN, startPeer, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * Two API instances behind one broker, one PostgreSQL and one Redis: a sighting reaches one
 * instance (shared subscription), and the Socket.IO Redis adapter carries its event to browsers
 * connected to either.
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL || !process.env.MQTT_URL) {
  throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
}

const ENTITY = `beacons_${randomBytes(3).toString('hex')}`;
const OTHER = `beacons_${randomBytes(3).toString('hex')}`;
let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;
let token = '';
let gateway: TestDevice;
let onA: BeaconClient;
let onB: BeaconClient;
let otherOnA: BeaconClient;

beforeAll(async () => {
  a = await startServer({ JWT_SECRET: 'scale-test-secret-shared-by-both-instances-0123' });
  b = await startPeer(a);
  token = (await signIn(a, ADMIN.name, ADMIN.password)).access_token;
  for (const name of [ENTITY, OTHER])
    await a.request('POST', '/api/v1/tenant', { token, body: { document: { name: { name, description: '' } } } });
  gateway = await connectDevice(a, ENTITY, await registerDevice(a, token, ENTITY, randomBytes(6).toString('hex')));
  onA = await connectBeacons(a.url, { token, entity: ENTITY });
  onB = await connectBeacons(b.url, { token, entity: ENTITY });
  otherOnA = await connectBeacons(a.url, { token, entity: OTHER });
});
afterAll(async () => {
  for (const c of [onA, onB, otherOnA]) c?.close();
  await gateway?.close();
  await b?.close();
  await a?.close();
});

describe('beacon events across API instances', () => {
  it('brings an event that arrived through instance B to a socket on instance A', async () => {
    const mac = randomBytes(6).toString('hex');
    // Configured on A: B's cache learns of it through the bus.
    expect(
      (await a.request('POST', `/api/v1/tenant/${ENTITY}/beacon-configs`, { token, body: beaconForm(mac) })).status,
    ).toBe(201);
    const before = { a: a.app.beacons.sightings.counts.sightings, b: b.app.beacons.sightings.counts.sightings };
    for (let i = 0; i < 20; i++) await gateway.publish('beacon', { beacon_mac: mac, rssi: -50 - (i % 10) });
    const mine = (c: BeaconClient) => c.events.filter((e) => e.beacon_mac === mac);
    await expect.poll(() => mine(onA).length, { timeout: 5_000 }).toBe(20);
    await expect.poll(() => mine(onB).length, { timeout: 5_000 }).toBe(20);
    const viaB = b.app.beacons.sightings.counts.sightings - before.b;
    const viaA = a.app.beacons.sightings.counts.sightings - before.a;
    expect(viaA + viaB).toBe(20);
    expect(viaB).toBeGreaterThan(0);
    expect(otherOnA.events).toEqual([]);
  });

  it('answers a configuration changed on A with the new rule on B at once', async () => {
    const mac = randomBytes(6).toString('hex');
    const res = await a.request('POST', `/api/v1/tenant/${ENTITY}/beacon-configs`, { token, body: beaconForm(mac) });
    await gateway.publish('beacon', { beacon_mac: mac, rssi: -50 });
    await onA.waitFor((e) => e.beacon_mac === mac);
    await b.request('PUT', `/api/v1/tenant/${ENTITY}/beacon-configs/${res.body.data.id}`, {
      token,
      body: { active: false },
    });
    const count = onA.events.length;
    for (let i = 0; i < 10; i++) await gateway.publish('beacon', { beacon_mac: mac, rssi: -50 });
    await Promise.all([a.app.beacons.sightings.flush(), b.app.beacons.sightings.flush()]);
    await new Promise((r) => setTimeout(r, 300));
    expect(onA.events.length).toBe(count);
  });
});
