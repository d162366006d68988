import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneBeaconEvents } from '../../src/domain/beacon/prune-beacon-events.ts';
import { beaconForm, connectBeacons, localTime, type BeaconClient } from '../helpers/beacons.ts';
import {
  connectDevice,
  randomDeviceId,
  registerDevice,
  startWithTwoEntities,
  type TestDevice,
} from '../helpers/devices.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let acmeAdmin = '';
let globexAdmin = '';
let gateway: TestDevice;
let acmeSocket: BeaconClient;
let globexSocket: BeaconClient;

const mac = () => randomBytes(6).toString('hex');
const configs = (entity: string) => `/api/v1/tenant/${entity}/beacon-configs`;
const create = (entity: string, body: unknown, token = root) => s.request('POST', configs(entity), { token, body });

async function addAdmin(entity: string) {
  const name = `admin_${randomBytes(3).toString('hex')}`;
  const res = await s.request('POST', `/api/v1/tenant/${entity}/account`, {
    token: root,
    body: { document: { name, email: `${name}@x.test`, password: 'password-1', subtype: 'admin', access: ['all'] } },
  });
  if (res.status !== 201) throw new Error(res.text);
  return (await signIn(s, name, 'password-1')).access_token;
}

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ BEACON_CONFIRM_AFTER_S: '1' }));
  acmeAdmin = await addAdmin(ACME);
  globexAdmin = await addAdmin(GLOBEX);
  gateway = await connectDevice(s, ACME, await registerDevice(s, root, ACME, randomDeviceId()));
  acmeSocket = await connectBeacons(s.url, { token: acmeAdmin });
  globexSocket = await connectBeacons(s.url, { token: globexAdmin });
});
afterAll(async () => {
  acmeSocket?.close();
  globexSocket?.close();
  await gateway?.close();
  await s?.close();
});

describe('beacon configurations', () => {
  it('normalises the MAC and fills the form’s defaults', async () => {
    const res = await create(ACME, {
      beacon_mac: 'C3:A1:B2:D4:E5:F6',
      patient_name: ' Ada Lovelace ',
      medications: [{ name: 'Aspirin', dosage: '100 mg' }],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('Beacon configuration created');
    expect(res.body.data).toMatchObject({
      beacon_mac: 'c3a1b2d4e5f6',
      patient_name: 'Ada Lovelace',
      room_number: null,
      medications: [{ name: 'Aspirin', dosage: '100 mg', time: '08:00' }],
      medications_text: 'Aspirin 100 mg at 08:00',
      rssi_threshold: -75,
      active: true,
      notes: '',
    });
    const list = await s.request('GET', configs(ACME), { token: acmeAdmin });
    expect(list.body.data.beacons.map((b: any) => b.beacon_mac)).toContain('c3a1b2d4e5f6');
    expect((await create(ACME, { ...beaconForm('c3a1b2d4e5f6') })).status).toBe(409);
  });

  it.each([
    ['no MAC', { beacon_mac: '' }, 'beacon_mac'],
    ['a short MAC', { beacon_mac: 'c3a1b2' }, 'beacon_mac'],
    ['a MAC with non-hex digits', { beacon_mac: 'zz:a1:b2:d4:e5:f6' }, 'beacon_mac'],
    ['no patient', { patient_name: '  ' }, 'patient_name'],
    ['no medication', { medications: [] }, 'medications'],
    ['six medications', { medications: Array(6).fill({ name: 'A', dosage: '1', time: '08:00' }) }, 'medications'],
    [
      'a medication without dosage',
      { medications: [{ name: 'A', dosage: '', time: '08:00' }] },
      'medications.0.dosage',
    ],
    ['a medication without name', { medications: [{ name: '', dosage: '1 mg' }] }, 'medications.0.name'],
    ['a time that is not HH:MM', { medications: [{ name: 'A', dosage: '1', time: '25:00' }] }, 'medications.0.time'],
    ['a threshold below -100', { rssi_threshold: -101 }, 'rssi_threshold'],
    ['a threshold above -40', { rssi_threshold: -35 }, 'rssi_threshold'],
  ])('refuses %s with the field named', async (_label, change, field) => {
    const res = await create(ACME, { ...beaconForm(mac()), ...change });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errorInfo.code).toBe(400);
    expect(JSON.stringify(res.body.errorInfo.details ?? res.body.errorInfo)).toContain(field);
  });

  it('edits everything but the MAC, and deletes', async () => {
    const { data } = (await create(ACME, beaconForm(mac()))).body;
    const url = `${configs(ACME)}/${data.id}`;
    const edit = await s.request('PUT', url, {
      token: acmeAdmin,
      body: { beacon_mac: data.beacon_mac.toUpperCase(), patient_name: 'Grace', active: false, rssi_threshold: -60 },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({
      status: 'Beacon configuration updated',
      data: { patient_name: 'Grace', active: false, rssi_threshold: -60, beacon_mac: data.beacon_mac },
    });
    const moved = await s.request('PUT', url, { token: acmeAdmin, body: { beacon_mac: mac() } });
    expect(moved.status).toBe(400);
    expect(moved.body.errorInfo.details.beacon_mac).toBeDefined();
    expect((await s.request('DELETE', url, { token: acmeAdmin })).body.status).toBe('Beacon configuration deleted');
    expect((await s.request('DELETE', url, { token: acmeAdmin })).status).toBe(404);
  });

  it('answers 404 for another entity’s configurations, and never shows them', async () => {
    const { data } = (await create(ACME, beaconForm(mac()))).body;
    for (const [method, path] of [
      ['GET', configs(ACME)],
      ['PUT', `${configs(ACME)}/${data.id}`],
      ['DELETE', `${configs(ACME)}/${data.id}`],
      ['GET', `/api/v1/tenant/${ACME}/beacon-events`],
    ] as const) {
      const res = await s.request(method, path, {
        token: globexAdmin,
        body: method === 'PUT' ? { notes: 'x' } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).not.toContain(data.beacon_mac);
    }
    // Through its own entity's path, the id of another entity's configuration is simply unknown.
    const own = await s.request('PUT', `${configs(GLOBEX)}/${data.id}`, { token: globexAdmin, body: { notes: 'x' } });
    expect(own.status).toBe(404);
    expect((await s.request('DELETE', `${configs(GLOBEX)}/not-a-uuid`, { token: globexAdmin })).status).toBe(404);
  });
});

describe('sightings', () => {
  const seen =
    (m: string, type = 'beacon_detected') =>
    (e: any) =>
      e.beacon_mac === m && e.event_type === type;

  it('makes a detected event only of an active configured beacon at or above its threshold', async () => {
    const [near, inactive, unknown] = [mac(), mac(), mac()];
    await create(ACME, beaconForm(near, localTime(180), { rssi_threshold: -70 }));
    await create(ACME, beaconForm(inactive, localTime(180), { active: false }));
    await gateway.publish('beacon', { beacon_mac: near, rssi: -71, ts: Date.now() });
    await gateway.publish('beacon', { beacon_mac: inactive, rssi: -50 });
    await gateway.publish('beacon', { beacon_mac: unknown, rssi: -50 });
    await gateway.publish('beacon', { beacon_mac: near.toUpperCase(), rssi: -70 });
    const event = await acmeSocket.waitFor(seen(near));
    expect(event).toMatchObject({
      event_type: 'beacon_detected',
      patient: `Patient ${near.slice(-4)}`,
      room: '101',
      rssi: -70,
      gateway: gateway.name,
      medications: [expect.stringMatching(/^Aspirin 100 mg at \d\d:\d\d$/)],
      message_sent: false,
    });
    await s.app.beacons.sightings.flush();
    const history = await s.request('GET', `/api/v1/tenant/${ACME}/beacon-events?limit=100`, { token: acmeAdmin });
    const macs = history.body.data.events.map((e: any) => e.beacon_mac);
    expect(macs.filter((m: string) => m === near)).toHaveLength(1);
    // The browser may hear of an event before it is written: the feed and the history name it alike.
    expect(history.body.data.events.find((e: any) => e.beacon_mac === near)).toEqual(event);
    expect(macs).not.toContain(inactive);
    expect(macs).not.toContain(unknown);
    expect(history.body.data.stats.total_events_24h).toBeGreaterThanOrEqual(1);
    expect(history.body.data.stats.gateways_online).toBe(1);
    expect(acmeSocket.events.filter((e) => e.beacon_mac === near)).toHaveLength(1);
  });

  it('sends one reminder per due time, then confirms the visit once', async () => {
    const due = mac();
    await create(ACME, beaconForm(due, localTime(0)));
    for (let i = 0; i < 3; i++) await gateway.publish('beacon', { beacon_mac: due, rssi: -50 });
    const sent = await acmeSocket.waitFor(seen(due, 'message_sent'));
    expect(sent).toMatchObject({ message_sent: true, gateway: gateway.name, patient: `Patient ${due.slice(-4)}` });
    const command = await gateway.nextCommand();
    expect(command.topic).toBe(`fleet/${ACME}/${gateway.name}/cmd`);
    expect(command.body).toMatchObject({ type: 'reminder', payload: { beacon_mac: due, due_time: localTime(0) } });
    // Another sighting before the confirmation delay (1 s here): seen, not a visit yet.
    await gateway.publish('beacon', { beacon_mac: due, rssi: -54 });
    await acmeSocket.waitFor((e) => seen(due)(e) && e.rssi === -54);
    expect(acmeSocket.events.filter(seen(due, 'confirm_visit'))).toEqual([]);
    // More sightings past the delay, still within the due window: no second reminder, one visit. The
    // batcher takes a sighting's time as an argument, so they are dated 1.1 s on rather than waited for.
    const later = () => new Date(Date.now() + 1100);
    const at = { name: gateway.name, entity: ACME };
    for (let i = 0; i < 3; i++) s.app.beacons.sightings.sighting(at, { beacon_mac: due, rssi: -55 }, later());
    await acmeSocket.waitFor(seen(due, 'confirm_visit'));
    // One more, told apart by its strength: once its event is here, anything sent before it is too.
    s.app.beacons.sightings.sighting(at, { beacon_mac: due, rssi: -56 }, later());
    await s.app.beacons.sightings.flush();
    await acmeSocket.waitFor((e) => seen(due)(e) && e.rssi === -56);
    const mine = acmeSocket.events.filter((e) => e.beacon_mac === due);
    expect(mine.filter((e) => e.event_type === 'message_sent')).toHaveLength(1);
    expect(mine.filter((e) => e.event_type === 'confirm_visit')).toHaveLength(1);
    expect(mine.filter((e) => e.event_type === 'beacon_detected').every((e) => e.message_sent)).toBe(true);
    expect(gateway.received.filter((m) => m.body.type === 'reminder')).toHaveLength(1);
  });

  it('never tells another entity’s sockets', async () => {
    // Each socket hears its own entity's sighting (the positive control). Acme's is announced
    // first, so had Globex's socket been told of it, it would have heard it before its own.
    const [mine, theirs] = [mac(), mac()];
    await create(ACME, beaconForm(mine));
    await create(GLOBEX, beaconForm(theirs));
    await gateway.publish('beacon', { beacon_mac: mine, rssi: -50 });
    await acmeSocket.waitFor(seen(mine));
    const globexGateway = await connectDevice(s, GLOBEX, await registerDevice(s, root, GLOBEX, randomDeviceId()));
    await globexGateway.publish('beacon', { beacon_mac: theirs, rssi: -50 });
    await globexSocket.waitFor(seen(theirs));
    expect(globexSocket.events.map((e) => e.beacon_mac)).toEqual([theirs]);
    await globexGateway.close();
  });

  it('prunes events past the retention', async () => {
    await s.app.db.execute(sql`
      insert into beacon_events (entity, event_type, beacon_mac, patient, rssi, gateway, medications, timestamp)
      values (${ACME}, 'beacon_detected', 'aaaaaaaaaaaa', 'Old', -50, 'gw', '[]'::jsonb, now() - interval '31 days')`);
    expect(await pruneBeaconEvents(s.app.db, 30)).toBe(1);
    const history = await s.request('GET', `/api/v1/tenant/${ACME}/beacon-events`, { token: acmeAdmin });
    expect(history.body.data.events.length).toBeGreaterThan(0);
    expect(history.body.data.events.map((e: any) => e.patient)).not.toContain('Old');
  });
});

describe('the /beacon-demo socket', () => {
  it('refuses a handshake without a valid token, or for another entity', async () => {
    await expect(connectBeacons(s.url, {})).rejects.toThrow(/Authentication required/);
    await expect(connectBeacons(s.url, { token: 'nope' })).rejects.toThrow(/Authentication required/);
    await expect(connectBeacons(s.url, { token: acmeAdmin, entity: GLOBEX })).rejects.toThrow(/not found/);
    const landlord = await connectBeacons(s.url, { token: root, entity: GLOBEX });
    landlord.close();
  });

  it('disconnects the sockets of a session that ends', async () => {
    const { access_token, refresh_token } = await signIn(s, 'admin', 'admin-password-1');
    const client = await connectBeacons(s.url, { token: access_token, entity: ACME });
    const gone = new Promise<string>((resolve) => client.socket.once('disconnect', resolve));
    await s.request('POST', '/api/v1/logout', { token: refresh_token });
    expect(await gone).toBe('io server disconnect');
  });
});

describe('shutdown', () => {
  it('disconnects connected sockets at once and closes without waiting for them', async () => {
    const other = await startServer();
    const token = (await signIn(other, 'admin', 'admin-password-1')).access_token;
    const entity = `shut_${randomBytes(3).toString('hex')}`;
    await other.request('POST', '/api/v1/tenant', { token, body: { document: { name: { name: entity } } } });
    const client = await connectBeacons(other.url, { token, entity });
    const gone = new Promise<string>((resolve) => client.socket.once('disconnect', resolve));
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await gone).toMatch(/disconnect|transport close/);
  });
});
