import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import {
  autoReply,
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
  type Credentials,
} from '../helpers/devices.ts';

// What the devices' answers tell the person who asked (issue 25, items 3 and 6): imported devices'
// credentials, a device that never connected, the Charging filter, a refresh's reply, and an
// entity-wide command answered at once with its progress to follow.

let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({}, { shared: true }));
});
afterAll(async () => s?.close());

const send = (entity: string, name: string, payload: object) =>
  s.request('POST', `/api/v1/tenant/${entity}/mqtt/general/${name}`, { token: root, body: { payload } });
const device = (entity: string, name: string) =>
  s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token: root }).then((r) => r.body.data);

async function online(entity: string, creds: Credentials) {
  const dev = await connectDevice(s, entity, creds);
  await eventually(async () => expect((await device(entity, creds.username)).online).toBe(true));
  return dev;
}

describe('a device that never connected', () => {
  it('is said not to have connected yet, not to sleep, when a command or provisioning waits for it', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const held = await send(ACME, name, { type: 'vibrate', song: 'V10' });
    expect(held.status).toBe(202);
    expect(held.body.userMessage).toMatch(new RegExp(`^Device ${name} has not connected yet: .*first connects`));
    const provision = await s.request('POST', `/api/v1/tenant/${ACME}/provision/${name}`, { token: root });
    expect(provision.status).toBe(409);
    expect(provision.body.errorInfo.userMessage).toBe(`Device ${name} has not connected yet`);
  });

  it('is asleep once it has been heard from and went away', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    // Going to sleep as firmware does (an external broker tells the server of no disconnect).
    await dev.publish('state', { online: false });
    await dev.close();
    await eventually(async () => expect((await device(ACME, name)).online).toBe(false));
    // Its sign of life may share its registration's 5-second grain: move the registration back.
    await s.app.db.execute(sql`update devices set created_at = created_at - interval '1 minute' where name = ${name}`);
    const held = await send(ACME, name, { type: 'vibrate', song: 'V10' });
    expect(held.body.userMessage).toMatch(new RegExp(`^Device ${name} is asleep: the command waits until it wakes`));
    const provision = await s.request('POST', `/api/v1/tenant/${ACME}/provision/${name}`, { token: root });
    expect(provision.body.errorInfo).toMatchObject({
      userMessage: `Device ${name} is asleep`,
      developerMessage: expect.stringMatching(/needs the device connected/),
    });
  });
});

describe('the Charging filter', () => {
  it('lists devices whose battery charges, not mains-powered gateways that say they charge', async () => {
    const [docked, gateway] = [hex(), hex()];
    const dockedDev = await online(GLOBEX, await registerDevice(s, root, GLOBEX, docked));
    const gatewayDev = await online(GLOBEX, await registerDevice(s, root, GLOBEX, gateway));
    await dockedDev.publish('state', { state: 'WAITING', battery: 40, is_charging: true });
    await gatewayDev.publish('state', { online: true, is_charging: true });
    await eventually(async () => {
      await s.app.devices.telemetry.flush();
      const res = await s.request('GET', `/api/v1/tenant/${GLOBEX}/device?battery=Charging&limit=50`, {
        token: root,
      });
      expect(res.body.data.map((d: { name: string }) => d.name)).toEqual([docked]);
    });
    await Promise.all([dockedDev.close(), gatewayDev.close()]);
  });
});

describe('refresh', () => {
  it('answers the caller what the device replied: state, firmware and battery', async () => {
    const name = hex();
    const dev = await online(ACME, await registerDevice(s, root, ACME, name));
    autoReply(dev, () => ({
      status: 'success',
      data: { state: 'WAITING', fw_version: '3.2.0', battery: 57, is_charging: true },
    }));
    const res = await send(ACME, name, { type: 'refresh' });
    expect(res.status).toBe(200);
    expect(res.body.report).toEqual({ state: 'WAITING', fw_version: '3.2.0', battery: 57, is_charging: true });
    // Other commands carry no report.
    const vibrate = await send(ACME, name, { type: 'vibrate', song: 'V10' });
    expect(vibrate.body.report).toBeUndefined();
    await dev.close();
  });
});

describe('an entity-wide command with wait=false', () => {
  it('answers at once with how many devices it went to, then its progress as the devices answer', async () => {
    // An entity of its own, so its device count is this test's.
    const entity = `wide_${hex()}`;
    await s.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: entity, description: '' } } },
    });
    const [a, b, sleeper] = [hex(), hex(), hex()];
    const devA = await online(entity, await registerDevice(s, root, entity, a));
    const devB = await online(entity, await registerDevice(s, root, entity, b));
    await registerDevice(s, root, entity, sleeper);
    const started = Date.now();
    const res = await s.request('POST', `/api/v1/tenant/${entity}/mqtt/general/entity?wait=false`, {
      token: root,
      body: { payload: { type: 'vibrate', song: 'V101' } },
    });
    expect(res.status).toBe(202);
    // At once: well before the 1.5 s the devices would be waited for.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(res.body).toMatchObject({
      status: 'running',
      data: { type: 'vibrate', total: 3, counts: { sent: 2, queued: 1, succeeded: 0 } },
    });
    const progress = () =>
      s.request('GET', `/api/v1/tenant/${entity}/mqtt/general/entity/${res.body.data.id}`, { token: root });
    const command = await devA.nextCommand();
    await devA.publish('reply', { id: command.body.id, status: 'success' });
    await eventually(async () => {
      const p = await progress();
      expect(p.body).toMatchObject({ status: 'running', data: { counts: { succeeded: 1, sent: 1, queued: 1 } } });
      expect(p.body.userMessage).toBe(
        'Vibrate sent to 3 devices: 1 answered, 1 waiting for a reply, 1 held until they connect',
      );
    });
    // The one publication reached both devices at once: B has it already.
    await eventually(async () => expect(devB.received).toHaveLength(1));
    await devB.publish('reply', { id: command.body.id, status: 'error', error: 'Motor jammed' });
    await eventually(async () => {
      const p = await progress();
      expect(p.body).toMatchObject({
        status: 'done',
        data: { counts: { succeeded: 1, failed: 1, queued: 1, sent: 0 } },
      });
    });
    // Another entity's command is not found from here, nor an unknown one.
    expect(
      (await s.request('GET', `/api/v1/tenant/${ACME}/mqtt/general/entity/${res.body.data.id}`, { token: root }))
        .status,
    ).toBe(404);
    await Promise.all([devA.close(), devB.close()]);
  });

  it('still answers every outcome after the replies without wait=false', async () => {
    const entity = `wide_${hex()}`;
    await s.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: entity, description: '' } } },
    });
    const dev = await online(entity, await registerDevice(s, root, entity, hex()));
    autoReply(dev);
    const res = await s.request('POST', `/api/v1/tenant/${entity}/mqtt/general/entity`, {
      token: root,
      body: { payload: { type: 'vibrate', song: 'V101' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.counts.succeeded).toBe(1);
    await dev.close();
  });
});
