import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconForm, connectBeacons, localTime } from '../helpers/beacons.ts';
import {
  autoReply,
  connectDevice,
  eventually,
  randomDeviceId,
  registerDevice,
  startWithTwoEntities,
  type TestDevice,
} from '../helpers/devices.ts';
import { build } from '../../src/app.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount, signIn } from '../helpers/session.ts';

/**
 * The superadmin inside an entity (issue 25): every tenant area of `tenant/{entity}/` answers it
 * as it answers that entity's admin with `all`, in whichever entity it names; an entity that does
 * not exist is not found, on the API, the kiosk manager and the beacon socket alike.
 */

let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let tag = '';
let gateway: TestDevice;

const tenant = (entity: string, tail: string) => `/api/v1/tenant/${entity}/${tail}`;
const call = (method: string, path: string, body?: unknown) => s.request(method, path, { token: root, body });
const set = (fields: object) => ({ operator: { $set: fields } });

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX, tag } = await startWithTwoEntities({ BEACON_CONFIRM_AFTER_S: '1' }));
  await createAccount(s, root, { name: `boss_${tag}`, subtype: 'admin', entity: ACME });
  gateway = await connectDevice(s, ACME, await registerDevice(s, root, ACME, randomDeviceId()));
});
afterAll(async () => {
  await gateway?.close();
  await s?.close();
});

describe('the superadmin inside an entity', () => {
  it('reads and changes its sites and kiosks', async () => {
    const site = { name: `site_${tag}`, gps_coordinates: [52.52, 13.405] };
    expect((await call('POST', tenant(ACME, 'site'), { document: site })).status).toBe(201);
    expect((await call('PUT', tenant(ACME, `site/${site.name}`), set({ description: 'Lobby' }))).status).toBe(200);
    const sites = await call('GET', tenant(ACME, 'site?limit=0'));
    expect(sites.body.data.map((x: { name: string }) => x.name)).toEqual([site.name]);
    expect((await call('GET', tenant(GLOBEX, 'site?limit=0'))).body.data).toEqual([]);
    const kiosk = { name: `kiosk_${tag}`, location: { site: site.name } };
    expect((await call('POST', tenant(ACME, 'kiosk'), { document: kiosk })).status).toBe(201);
    expect((await call('GET', tenant(ACME, `kiosk/${kiosk.name}`))).body.data.name).toBe(kiosk.name);
    expect((await call('DELETE', tenant(ACME, `kiosk/${kiosk.name}`))).status).toBe(200);
    expect((await call('DELETE', tenant(ACME, `site/${site.name}`))).status).toBe(200);
  });

  it('reads and changes its groups and puts a device in one', async () => {
    const group = `group_${tag}`;
    expect((await call('POST', tenant(ACME, 'dispenser'), { document: { name: group } })).status).toBe(201);
    const device = randomDeviceId();
    await registerDevice(s, root, ACME, device);
    expect((await call('POST', tenant(ACME, `dispenser/${group}/put/${device}`))).status).toBe(200);
    const devices = await call('GET', tenant(ACME, `device?limit=0&group=${group}`));
    expect(devices.status).toBe(200);
    expect((await call('GET', tenant(ACME, `device/${device}`))).body.data.group).toBe(group);
    expect((await call('GET', tenant(ACME, `dispenser/${group}`))).body.data.name).toBe(group);
    // Another entity's device is not found in this one.
    expect((await call('GET', tenant(GLOBEX, `device/${device}`))).status).toBe(404);
  });

  it('adds, reads, changes and deletes its dataviews', async () => {
    const name = `view_${tag}`;
    const document = { name, owner: `boss_${tag}`, description: 'Lobby screen', version: '1.0' };
    const made = await call('POST', tenant(ACME, 'dataview'), { document });
    expect(made.status, made.text).toBe(201);
    expect((await call('PUT', tenant(ACME, `dataview/${name}`), set({ description: 'Hall' }))).status).toBe(200);
    const one = await call('GET', tenant(ACME, `dataview/${name}`));
    expect(one.body.data).toMatchObject({ name, entity: ACME, description: 'Hall' });
    expect((await call('GET', tenant(ACME, 'dataview'))).body.data.map((d: { name: string }) => d.name)).toContain(
      name,
    );
    expect((await call('GET', tenant(GLOBEX, `dataview/${name}`))).status).toBe(404);
    expect((await call('DELETE', tenant(ACME, `dataview/${name}`))).status).toBe(200);
  });

  it('configures its beacons and hears their events on a socket naming the entity', async () => {
    const mac = randomDeviceId();
    expect((await call('POST', tenant(ACME, 'beacon-configs'), beaconForm(mac, localTime(180)))).status).toBe(201);
    const socket = await connectBeacons(s.url, { token: root, entity: ACME });
    try {
      await gateway.publish('beacon', { beacon_mac: mac, rssi: -50 });
      const event = await socket.waitFor((e) => e.beacon_mac === mac);
      expect(event.event_type).toBe('beacon_detected');
      await s.app.beacons.sightings.flush();
      const history = await call('GET', tenant(ACME, 'beacon-events?limit=100'));
      expect(history.body.data.events.map((e: { beacon_mac: string }) => e.beacon_mac)).toContain(mac);
      const configs = (await call('GET', tenant(ACME, 'beacon-configs'))).body.data.beacons;
      expect(configs.map((b: { beacon_mac: string }) => b.beacon_mac)).toContain(mac);
    } finally {
      socket.close();
    }
  });

  it('sends a device command, recorded as sent by the superadmin', async () => {
    const name = randomDeviceId();
    const device = await connectDevice(s, ACME, await registerDevice(s, root, ACME, name));
    try {
      await eventually(async () =>
        expect((await call('GET', tenant(ACME, `device/${name}`))).body.data.online).toBe(true),
      );
      autoReply(device);
      const sent = await call('POST', tenant(ACME, `mqtt/general/${name}`), {
        payload: { type: 'vibrate', song: 'V10' },
      });
      expect(sent.status, sent.text).toBe(200);
      expect(sent.body.data).toMatchObject({ state: 'succeeded', sent_by: 'admin' });
      expect(device.received[0]!.topic).toBe(`fleet/${ACME}/${name}/cmd`);
      const history = await call('GET', tenant(ACME, `device/${name}/commands`));
      expect(history.body.data[0]).toMatchObject({ type: 'vibrate', sent_by: 'admin' });
    } finally {
      await device.close();
    }
  });

  it('reads and changes its entity config and accounts', async () => {
    expect((await call('GET', tenant(ACME, 'config'))).status).toBe(200);
    const accounts = await call('GET', tenant(ACME, 'account'));
    expect(accounts.body.data.map((a: { name: string }) => a.name)).toContain(`boss_${tag}`);
    const made = await call('POST', tenant(ACME, 'account'), {
      document: { name: `dev_${tag}`, email: 'dev@x.test', password: 'password-1', subtype: 'developer' },
    });
    expect(made.status, made.text).toBe(201);
    expect((await call('GET', tenant(ACME, `account/dev_${tag}`))).body.data.entity).toBe(ACME);
  });
});

describe('the acting entity in the request context', () => {
  it('names the entity a superadmin acts inside, and nothing for anyone else or on a plain path', async () => {
    const peer = await build(s.config, { logger: false });
    const seen: Array<[string, string | null]> = [];
    peer.addHook('onResponse', async (request) => void seen.push([request.url, request.actingEntity]));
    await peer.ready();
    try {
      const boss = (await signIn(s, `boss_${tag}`, 'password-1')).access_token;
      const as = (token: string, url: string) => peer.inject({ url, headers: { authorization: `Bearer ${token}` } });
      await as(root, tenant(ACME, 'site'));
      await as(root, '/api/v1/device');
      await as(boss, tenant(ACME, 'site'));
      await as(root, tenant(`gone_${tag}`, 'site'));
    } finally {
      await peer.close();
    }
    expect(seen).toEqual([
      [tenant(ACME, 'site'), ACME],
      ['/api/v1/device', null],
      [tenant(ACME, 'site'), null],
      [tenant(`gone_${tag}`, 'site'), null],
    ]);
  });
});

describe('an entity that does not exist', () => {
  it('is not found on every tenant path, the kiosk manager and the beacon socket', async () => {
    for (const path of ['site', 'dispenser', 'kiosk', 'dataview', 'beacon-configs', 'device', 'mqtt/general/entity']) {
      const method = path.startsWith('mqtt') ? 'POST' : 'GET';
      const res = await call(method, tenant(`gone_${tag}`, path), method === 'POST' ? { payload: {} } : undefined);
      expect([path, res.status, res.body.errorInfo.userMessage]).toEqual([path, 404, 'Entity not found']);
    }
    const kiosk = await s.request('POST', `/kiosk-manager/v1/kiosk/gone_${tag}/k/allocate`, {
      token: root,
      body: { visitor: 'v', device: randomDeviceId() },
    });
    expect([kiosk.status, kiosk.body.errorInfo.userMessage]).toEqual([404, 'Entity not found']);
    // The landlord scope is no entity: a socket naming it would hear nothing, so it is refused.
    for (const entity of ['landlord', `gone_${tag}`]) {
      await expect(connectBeacons(s.url, { token: root, entity })).rejects.toThrow('Entity not found');
    }
  });

  it('leaves everyone else at their own entity', async () => {
    const boss = (await signIn(s, `boss_${tag}`, 'password-1')).access_token;
    expect((await s.request('GET', tenant(GLOBEX, 'site'), { token: boss })).status).toBe(404);
    await expect(connectBeacons(s.url, { token: boss, entity: GLOBEX })).rejects.toThrow();
  });
});
