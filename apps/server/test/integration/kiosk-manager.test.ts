import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedDevice } from '@fleet/simulator/device';
import { dataviews, groups, kiosks } from '../../src/db/schema.ts';
import { eventually, randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * The kiosk manager (fleet §2, §4, §7): allocate a device from the kiosk of its last dispenser,
 * return it to a kiosk's dispenser, with simulated devices answering the commands.
 */

let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const sims: SimulatedDevice[] = [];
const KM = '/kiosk-manager/v1/kiosk';

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities({}, { shared: true }));
  const db = s.app.db;
  await db.insert(kiosks).values([
    { entity: acme, name: 'lobby', latitude: 1, longitude: 2 },
    { entity: acme, name: 'ward', latitude: 1, longitude: 2 },
    { entity: globex, name: 'lobby', latitude: 1, longitude: 2 },
  ]);
  await db.insert(groups).values([
    { entity: acme, name: 'lobby_a', kiosk: 'lobby', capacity: 50 },
    { entity: acme, name: 'lobby_full', kiosk: 'lobby', capacity: 1 },
    { entity: acme, name: 'ward_a', kiosk: 'ward', capacity: 50 },
    { entity: acme, name: 'loose', capacity: 5 },
    { entity: globex, name: 'lobby_a', kiosk: 'lobby', capacity: 5 },
  ]);
  await db.insert(dataviews).values([
    { entity: acme, name: 'guide', version: '1', content: { name: 'guide', screens: 2 } },
    { entity: acme, name: 'menu', version: '1', content: { name: 'menu' } },
  ]);
});
afterAll(async () => {
  await Promise.all(sims.map((d) => d.stop()));
  await s?.close();
});

const post = (path: string, body: unknown, token = root) => s.request('POST', path, { token, body });
const device = async (name: string, entity = acme) =>
  (await s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token: root })).body.data;

/** A device of the entity put into `dispenser` (its group and last dispenser). */
async function placed(dispenser: string | null, entity = acme) {
  const name = randomDeviceId();
  const res = await post(`/api/v1/tenant/${entity}/device`, { document: { name, description: 'unit' } });
  expect(res.status).toBe(201);
  if (dispenser)
    expect((await post(`/api/v1/tenant/${entity}/dispenser/${dispenser}/put/${name}`, {})).status).toBe(200);
  return { name, secret: res.body.data.mqtt.password as string };
}

/** A simulated device, online and awake, in `dispenser`. */
async function simulated(dispenser: string, faults: { refuseKiosk?: boolean } = {}) {
  const { name, secret } = await placed(dispenser);
  const d = new SimulatedDevice({
    id: name,
    entity: acme,
    secret,
    url: s.mqttUrl,
    sleeps: false,
    timeScale: 1,
    faults,
    status: { fwVersion: '1.0.0', state: 'WAITING' },
  });
  sims.push(d);
  d.start();
  await d.whenOnline();
  await eventually(async () => expect((await device(name)).online).toBe(true));
  return name;
}

describe('allocate and return with a simulated device', () => {
  it('allocates (200 once the device confirms), records the history, and returns it to another kiosk', async () => {
    const name = await simulated('lobby_a');
    const res = await post(`${KM}/${acme}/lobby/allocate`, {
      visitor: 'visitor_7',
      device: name,
      network: '{"ssid": "guest"}',
      apps: { guide: '{"screens": 3}', menu: null },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toMatchObject({
      device: name,
      kiosk: 'lobby',
      dispenser: 'lobby_a',
      visitor: 'visitor_7',
      apps: { guide: { screens: 3 }, menu: { name: 'menu' } },
      network: { ssid: 'guest' },
      allocated_by: 'admin',
      returned_at: null,
      outcome: 'open',
    });
    const out = await device(name);
    expect(out.state.current).toBe('ALLOCATED');
    expect(out.group).toBeNull();
    expect(out.last_dispenser).toEqual({ dispenser: 'lobby_a' });
    const commands = (await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/commands`, { token: root })).body;
    expect(commands.data[0]).toMatchObject({ type: 'allocate', state: 'succeeded' });
    expect(commands.data[0].payload).toMatchObject({ visitor: 'visitor_7', network: { ssid: 'guest' } });

    // A second allocation of an allocated device is a conflict.
    const again = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'other', device: name, apps: {} });
    expect(again.status).toBe(409);
    expect(again.body.errorInfo.userMessage).toBe(`Device ${name} is already allocated`);

    const back = await post(`${KM}/${acme}/ward/return`, { device: name, dispenser: 'ward_a' });
    expect(back.status, back.text).toBe(200);
    expect(back.body.data).toMatchObject({ outcome: 'returned', returned_to: 'ward_a', returned_by: 'admin' });
    const home = await device(name);
    expect(home).toMatchObject({ group: 'ward_a', last_dispenser: { dispenser: 'ward_a' } });
    // The device's own reports are batched: its last ALLOCATED report may land just after the
    // return; its report after the return settles the state.
    await eventually(async () => expect((await device(name)).state.current).toBe('WAITING'));
    const history = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/allocations`, { token: root });
    expect(history.body.total).toBe(1);
    expect(history.body.data[0]).toMatchObject({ visitor: 'visitor_7', outcome: 'returned' });
    // The device reports what it was told: its own state reports keep it WAITING.
    await eventually(async () => expect(sims.find((d) => d.id === name)!.model.reportedState).toBe('WAITING'));
  });

  it('answers 202 with a user message while the device sleeps, and the device gets it when it wakes', async () => {
    const { name, secret } = await placed('lobby_a');
    const res = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'sleepy', device: name, apps: { guide: '' } });
    expect(res.status, res.text).toBe(202);
    expect(res.body.status).toBe('queued');
    // Registered, never connected: held, and not said to sleep (device-feedback.test.ts has the asleep case).
    expect(res.body.userMessage).toMatch(
      new RegExp(`^Device ${name} has not connected yet: the command waits until it first connects`),
    );
    expect((await device(name)).state.current).toBe('ALLOCATED');
    const d = new SimulatedDevice({
      id: name,
      entity: acme,
      secret,
      url: s.mqttUrl,
      sleeps: false,
      status: { fwVersion: '1.0.0', state: 'WAITING' },
    });
    sims.push(d);
    d.start();
    await eventually(async () => expect(d.model.reportedState).toBe('ALLOCATED'), 10_000);
    await eventually(async () => {
      const commands = (await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/commands`, { token: root })).body;
      expect(commands.data[0]).toMatchObject({ type: 'allocate', state: 'succeeded' });
    }, 10_000);
  });

  it('a held allocation the device refuses when it wakes closes as refused', async () => {
    const { name, secret } = await placed('lobby_a');
    const res = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'late', device: name, apps: {} });
    expect(res.status).toBe(202);
    const d = new SimulatedDevice({
      id: name,
      entity: acme,
      secret,
      url: s.mqttUrl,
      sleeps: false,
      faults: { refuseKiosk: true },
      status: { fwVersion: '1.0.0', state: 'WAITING' },
    });
    sims.push(d);
    d.start();
    await eventually(async () => {
      const history = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/allocations`, { token: root });
      expect(history.body.data[0]).toMatchObject({ visitor: 'late', outcome: 'refused' });
    }, 10_000);
    // Not allocated any more: it may be allocated again.
    expect(d.model.reportedState).toBe('WAITING');
  });

  it('a device that refuses leaves no open allocation and keeps its place', async () => {
    const name = await simulated('lobby_a', { refuseKiosk: true });
    const res = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: name, apps: {} });
    expect(res.status).toBe(502);
    expect(res.body.errorInfo.developerMessage).toBe('Refused by the device');
    const after = await device(name);
    expect(after.group).toBe('lobby_a');
    expect(after.state.current).not.toBe('ALLOCATED');
    const history = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/allocations`, { token: root });
    expect(history.body.data[0]).toMatchObject({ outcome: 'refused' });
    expect(history.body.data[0].returned_at).not.toBeNull();
  });
});

describe('allocation rules', () => {
  it("refuses a device without a last dispenser: 'Device has no kiosk information.'", async () => {
    const { name } = await placed(null);
    const res = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: name, apps: {} });
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe('Device has no kiosk information.');
    const { name: loose } = await placed('loose');
    const res2 = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: loose, apps: {} });
    expect(res2.body.errorInfo.userMessage).toBe('Device has no kiosk information.');
  });

  it('refuses allocation from a kiosk the device is not at', async () => {
    const { name } = await placed('ward_a');
    const res = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: name, apps: {} });
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe(`Device ${name} is at kiosk ward, not lobby`);
  });

  it('checks the user ID, the JSON of each dataview and the network info', async () => {
    const { name } = await placed('lobby_a');
    const bad = async (body: object) => {
      const res = await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: name, apps: {}, ...body });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body.errorInfo.details);
    };
    expect(await bad({ apps: { guide: '{not json' } })).toContain('Is not valid JSON');
    expect(await bad({ network: '{"ssid": ' })).toContain('Is not valid JSON');
    expect(await bad({ visitor: 'no spaces' })).toContain(
      'The field may contain alpha-numeric characters as well as underscores',
    );
    expect(await bad({ apps: { nosuch: '{}' } })).toContain('No dataview named nosuch');
    // Nothing was recorded by the refusals.
    const history = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/allocations`, { token: root });
    expect(history.body.total).toBe(0);
  });

  it('of 50 parallel allocations of one device exactly one succeeds; the others get a clear 409', async () => {
    const { name } = await placed('lobby_a');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(`${KM}/${acme}/lobby/allocate`, { visitor: `visitor_${i}`, device: name, apps: {} }),
      ),
    );
    const codes = answers.map((a) => a.status);
    expect(codes.filter((c) => c === 202)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.errorInfo.userMessage).toBe(`Device ${name} is already allocated`);
    }
    const history = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}/allocations`, { token: root });
    expect(history.body.total).toBe(1);
  });

  it('a full dispenser refuses a return with a clear message', async () => {
    await placed('lobby_full');
    const { name } = await placed('lobby_a');
    const res = await post(`${KM}/${acme}/lobby/return`, { device: name, dispenser: 'lobby_full' });
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe('Group lobby_full is full: it holds 1 of 1 devices');
    expect((await device(name)).group).toBe('lobby_a');
  });

  it('refuses a return to the dispenser the device is already in, with a clear message', async () => {
    const { name } = await placed('lobby_a');
    const res = await post(`${KM}/${acme}/lobby/return`, { device: name, dispenser: 'lobby_a' });
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe(`Device ${name} is already in dispenser lobby_a`);
    expect(res.body.errorInfo.details.dispenser).toEqual([`Device ${name} is already in dispenser lobby_a`]);
    const after = await device(name);
    expect([after.group, after.state.current]).toEqual(['lobby_a', null]);
  });

  it('refuses a dispenser of another kiosk', async () => {
    const { name } = await placed('lobby_a');
    const res = await post(`${KM}/${acme}/lobby/return`, { device: name, dispenser: 'ward_a' });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.details.dispenser).toEqual(['Dispenser ward_a is not in kiosk lobby']);
  });
});

describe('entity rules', () => {
  it("answers 404 for another entity's device or kiosk", async () => {
    const other = await placed('lobby_a', globex);
    const mine = await placed('lobby_a');
    const acmeAdmin = await s.request('POST', `/api/v1/tenant/${acme}/account`, {
      token: root,
      body: {
        document: { name: `adm_${acme}`, email: 'a@x.test', password: 'password-1', subtype: 'admin', access: ['all'] },
      },
    });
    expect(acmeAdmin.status).toBe(201);
    const token = (await s.request('POST', '/api/v1/login', { body: { name: `adm_${acme}`, password: 'password-1' } }))
      .body.access_token;
    // Another entity's kiosk (by path) and another entity's device (in one's own kiosk path).
    for (const [path, body] of [
      [`${KM}/${globex}/lobby/allocate`, { visitor: 'v', device: other.name, apps: {} }],
      [`${KM}/${globex}/lobby/return`, { device: other.name, dispenser: 'lobby_a' }],
      [`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: other.name, apps: {} }],
      [`${KM}/${acme}/lobby/return`, { device: other.name, dispenser: 'lobby_a' }],
      [`${KM}/${acme}/nosuch/allocate`, { visitor: 'v', device: mine.name, apps: {} }],
    ] as const) {
      const res = await post(path, body, token);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toHaveProperty('data');
    }
    expect((await post(`${KM}/${acme}/lobby/allocate`, { visitor: 'v', device: mine.name, apps: {} })).status).toBe(
      202,
    );
    const anonymous = await s.request('POST', `${KM}/${acme}/lobby/allocate`, {
      body: { visitor: 'v', device: mine.name },
    });
    expect(anonymous.status).toBe(401);
  });
});
