import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';
import {
  autoReply,
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
  type Credentials,
} from '../helpers/devices.ts';

let s: TestServer;
let root = '';
let oper = '';
let ACME = '';
let GLOBEX = '';
let tag = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX, tag } = await startWithTwoEntities({}, { shared: true }));
  await s.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: {
        name: `op_${tag}`,
        email: 'op@x.test',
        password: 'password-1',
        subtype: 'operator',
        entity: ACME,
        access: [],
      },
    },
  });
  oper = (await signIn(s, `op_${tag}`, 'password-1')).access_token;
});
afterAll(async () => s?.close());

const send = (entity: string, name: string, payload: object, token = oper) =>
  s.request('POST', `/api/v1/tenant/${entity}/mqtt/general/${name}`, { token, body: { payload } });
const history = (entity: string, name: string, token = oper) =>
  s.request('GET', `/api/v1/tenant/${entity}/device/${name}/commands`, { token });

async function online(entity: string, creds: Credentials) {
  const dev = await connectDevice(s, entity, creds);
  await eventually(async () => {
    const res = await s.request('GET', `/api/v1/tenant/${entity}/device/${creds.username}`, { token: root });
    expect(res.body.data.online).toBe(true);
  });
  return dev;
}

describe('one device', () => {
  it('answers success once the device replies, and records who, what and how long', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    autoReply(dev);
    const res = await send(ACME, name, { type: 'vibrate', song: 'V10' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'success',
      data: { state: 'succeeded', type: 'vibrate', sent_by: `op_${tag}` },
    });
    const [cmd] = dev.received;
    expect(cmd!.topic).toBe(`fleet/${ACME}/${name}/cmd`);
    expect(cmd!.body).toMatchObject({ id: res.body.data.id, type: 'vibrate', payload: { song: 'V10' } });
    expect(Date.parse(cmd!.body.expires_at)).toBeGreaterThan(Date.now());
    const h = await history(ACME, name);
    expect(h.body.total).toBe(1);
    expect(h.body.data[0]).toMatchObject({
      state: 'succeeded',
      payload: { song: 'V10' },
      target: 'device',
      error: null,
    });
    expect(h.body.data[0].latency_ms).toBeGreaterThanOrEqual(0);
    await dev.close();
  });

  it('asks refresh for state, firmware and battery, and merges what the device answers', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    autoReply(dev, () => ({ status: 'success', data: { state: 'IDLE', fw_version: '3.0.1', battery: 64 } }));
    const res = await send(ACME, name, { type: 'refresh' });
    expect(res.status).toBe(200);
    expect(dev.received[0]!.body.payload).toEqual({ fields: ['state', 'fw_version', 'battery'] });
    await eventually(async () => {
      const d = (await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: root })).body.data;
      expect(d).toMatchObject({ state: { current: 'IDLE' }, fw_version: '3.0.1', battery: 64 });
    });
    await dev.close();
  });

  it('answers 502 with the device’s error text', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    autoReply(dev, () => ({ status: 'error', error: 'Motor jammed' }));
    const res = await send(ACME, name, { type: 'reboot' });
    expect(res.status).toBe(502);
    expect(res.body.errorInfo).toMatchObject({ code: 502, developerMessage: 'Motor jammed' });
    expect((await history(ACME, name)).body.data[0]).toMatchObject({ state: 'failed', error: 'Motor jammed' });
    await dev.close();
  });

  it('answers 504 when the device is silent, and a late reply still settles the record', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    const res = await send(ACME, name, { type: 'vibrate', song: 'V10' });
    expect(res.status).toBe(504);
    expect((await history(ACME, name)).body.data[0]).toMatchObject({ state: 'timed_out' });
    await dev.publish('reply', { id: dev.received[0]!.body.id, status: 'success' });
    await eventually(async () => expect((await history(ACME, name)).body.data[0].state).toBe('succeeded'));
    await dev.close();
  });

  it('holds a command for a sleeping device and delivers it when the device wakes', async () => {
    const name = hex();
    const creds = await registerDevice(s, root, ACME, name);
    const res = await send(ACME, name, { type: 'vibrate', song: 'V10' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', data: { state: 'queued' } });
    expect(res.body.userMessage).toMatch(/has not connected yet: the command waits until it first connects/);
    expect((await history(ACME, name)).body.data[0].state).toBe('queued');

    const dev = await connectDevice(s, ACME, creds);
    autoReply(dev);
    const delivered = await dev.nextCommand();
    expect(delivered.body.id).toBe(res.body.data.id);
    await eventually(async () => expect((await history(ACME, name)).body.data[0].state).toBe('succeeded'));
    await dev.close();
  });

  it('holds a command the broker does not take in time, answers 503, and sends it once the broker is back', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    autoReply(dev);
    const link = s.app.devices.link;
    const publish = link.publish;
    // A broker link that is down for the send's publication: it waits for ever. Only that one: the
    // server's own 5 s sweep may claim the held command meanwhile, and its publication goes out.
    let down = true;
    link.publish = (...args: Parameters<typeof publish>) => {
      if (!down) return publish.apply(link, args);
      down = false;
      return new Promise(() => {});
    };
    try {
      const asked = Date.now();
      const res = await send(ACME, name, { type: 'reboot' });
      expect(res.status).toBe(503);
      // Held: queued and never sent. A sweep (every 5 s, on any instance) may already have sent it
      // again, but only after the hold, so never sooner than the reply timeout after the ask.
      // (The test server's COMMAND_REPLY_TIMEOUT_MS is 1500.)
      const row = (await history(ACME, name)).body.data[0];
      const held = row.sent_at === null ? row.state === 'queued' : Date.parse(row.sent_at) - asked >= 1500;
      expect(held, JSON.stringify(row)).toBe(true);
    } finally {
      link.publish = publish;
    }
    await s.app.devices.commands.sweep();
    // Delivered (by this sweep or the server's own) and answered by the device.
    await eventually(async () => expect((await history(ACME, name)).body.data[0].state).toBe('succeeded'));
    await dev.close();
  });

  it('expires a held command the device never woke for', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/${name}`, {
      token: oper,
      body: { payload: { type: 'reboot' }, expires_in_s: 1 },
    });
    expect(res.status).toBe(202);
    await s.app.devices.commands.sweep();
    expect((await history(ACME, name)).body.data[0]).toMatchObject({ state: 'queued' });
    // Its second passes without waiting for it: the expiry moves into the past.
    await s.app.db.execute(sql`update commands set expires_at = now() - interval '1 second' where device = ${name}`);
    await s.app.devices.commands.sweep();
    expect((await history(ACME, name)).body.data[0]).toMatchObject({ state: 'expired' });
  });
});

describe('several devices', () => {
  it('sends each selected device its own command and answers each outcome', async () => {
    const names = [hex(), hex(), hex()];
    const [ok, bad, asleep] = names;
    const devOk = await online(ACME, await registerDevice(s, root, ACME, ok!));
    const devBad = await online(ACME, await registerDevice(s, root, ACME, bad!));
    await registerDevice(s, root, ACME, asleep!);
    autoReply(devOk);
    autoReply(devBad, () => ({ status: 'error', error: 'Battery empty' }));
    const stranger = hex();
    await registerDevice(s, root, GLOBEX, stranger);
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/devices`, {
      token: oper,
      body: { devices: [...names, stranger], payload: { type: 'vibrate', song: 'V10' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('partial');
    expect(res.body.data.counts).toEqual({ succeeded: 1, failed: 1, timed_out: 0, queued: 1, sent: 0 });
    const byDevice = Object.fromEntries(res.body.data.results.map((r: { device: string }) => [r.device, r]));
    expect(byDevice[bad!]).toMatchObject({ state: 'failed', error: 'Battery empty' });
    expect(byDevice[asleep!].state).toBe('queued');
    // Another entity's device is not found, exactly like a missing one.
    expect(byDevice[stranger].state).toBe('not_found');
    expect((await history(GLOBEX, stranger, root)).body.total).toBe(0);
    expect(new Set([devOk.received[0]!.body.id, devBad.received[0]!.body.id]).size).toBe(2);
    await Promise.all([devOk.close(), devBad.close()]);
  });

  it('answers a refresh of several devices with each device’s reply, as a single refresh does', async () => {
    const [a, b] = [hex(), hex()];
    const devA = await online(ACME, await registerDevice(s, root, ACME, a));
    const devB = await online(ACME, await registerDevice(s, root, ACME, b));
    autoReply(devA, () => ({ status: 'success', data: { state: 'IDLE', fw_version: '3.0.1', battery: 64 } }));
    autoReply(devB, () => ({ status: 'error', error: 'Sensor offline' }));
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/devices`, {
      token: oper,
      body: { devices: [a, b], payload: { type: 'refresh' } },
    });
    expect(res.status).toBe(200);
    const byDevice = Object.fromEntries(res.body.data.results.map((r: { device: string }) => [r.device, r]));
    expect(byDevice[a]).toEqual({
      device: a,
      state: 'succeeded',
      error: null,
      report: { state: 'IDLE', fw_version: '3.0.1', battery: 64 },
    });
    expect(byDevice[b]).toEqual({ device: b, state: 'failed', error: 'Sensor offline' });
    await Promise.all([devA.close(), devB.close()]);
  });

  it('warns when no devices are selected', async () => {
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/devices`, {
      token: oper,
      body: { devices: [], payload: { type: 'refresh' } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.errorInfo.details)).toContain('No devices selected');
  });
});

describe('the command API', () => {
  it('keeps other entities’ devices out of reach on every path', async () => {
    const name = hex();
    await registerDevice(s, root, GLOBEX, name);
    expect((await send(GLOBEX, name, { type: 'refresh' })).status).toBe(404);
    expect((await send(ACME, name, { type: 'refresh' })).status).toBe(404);
    expect((await history(ACME, name)).status).toBe(404);
    expect((await history(GLOBEX, name)).status).toBe(404);
    const all = await s.request('POST', `/api/v1/tenant/${GLOBEX}/mqtt/general/entity`, {
      token: oper,
      body: { payload: { type: 'reboot' } },
    });
    expect(all.status).toBe(404);
  });

  it('rejects malformed commands with a 400 and never a 500', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const bodies = [
      {},
      { payload: { type: 'format-disk' } },
      { payload: { type: 'vibrate' } },
      { payload: { type: 'vibrate', song: 'V10; reboot' } },
      { payload: { type: 'refresh', fields: ['password'] } },
      { payload: { type: 'reboot' }, expires_in_s: -1 },
      'not json',
    ];
    for (const body of bodies) {
      const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/${name}`, { token: oper, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await history(ACME, name)).body.total).toBe(0);
  });
});
