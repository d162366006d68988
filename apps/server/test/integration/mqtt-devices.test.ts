import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import {
  connectDevice,
  connectRaw,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
  type Credentials,
} from '../helpers/devices.ts';

let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({}, { shared: true }));
});
afterAll(async () => s?.close());

const device = (entity: string, name: string) =>
  s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token: root }).then((r) => r.body.data);

describe('device credentials', () => {
  it('lets a device in with its id and secret, and refuses anything else', async () => {
    const name = hex();
    const creds = await registerDevice(s, root, ACME, name);
    const ok = await connectRaw(s, creds);
    expect(ok.connected).toBe(true);
    await ok.endAsync();

    await expect(connectRaw(s, { username: name, password: 'not-the-secret' })).rejects.toThrow(/authori|password/i);
    await expect(connectRaw(s, { username: hex(), password: creds.password })).rejects.toThrow(/authori|password/i);
    await expect(connectRaw(s, { username: name })).rejects.toThrow(/authori|password/i);
    // Client id must be the device id, so one device cannot push another off the broker.
    await expect(connectRaw(s, creds, `${name}-x`)).rejects.toThrow(/authori|identifier/i);
  });

  it('ends the old secret and its session when the credentials are regenerated', async () => {
    const name = hex();
    const creds = await registerDevice(s, root, ACME, name);
    const before = await connectDevice(s, ACME, creds);
    const closed = new Promise<void>((resolve) => before.client.once('close', () => resolve()));
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/device/${name}/credentials`, { token: root });
    expect(res.status).toBe(200);
    await closed;
    await expect(connectRaw(s, creds)).rejects.toThrow(/authori|password/i);
    const again = await connectRaw(s, res.body.data);
    expect(again.connected).toBe(true);
    await again.endAsync();
  });

  it('refuses a deleted device', async () => {
    const name = hex();
    const creds = await registerDevice(s, root, ACME, name);
    expect((await s.request('DELETE', `/api/v1/tenant/${ACME}/device/${name}`, { token: root })).status).toBe(200);
    await expect(connectRaw(s, creds)).rejects.toThrow(/authori|password/i);
  });
});

describe('topic isolation', () => {
  let a: Credentials;
  let b: Credentials;
  let g: Credentials;
  const [aName, bName, gName] = [hex(), hex(), hex()];

  beforeAll(async () => {
    a = await registerDevice(s, root, ACME, aName);
    b = await registerDevice(s, root, ACME, bName);
    g = await registerDevice(s, root, GLOBEX, gName);
  });

  it('lets a device subscribe only to its own and its entity’s command topics', async () => {
    const client = await connectRaw(s, a);
    const granted = (topic: string) =>
      new Promise<number>((resolve) =>
        client.subscribe(topic, { qos: 1 }, (err, g) => resolve(err ? 128 : (g?.[0]?.qos ?? 128))),
      );
    expect(await granted(`fleet/${ACME}/${aName}/cmd`)).toBe(1);
    expect(await granted(`fleet/${ACME}/cmd`)).toBe(1);
    expect(await granted(`fleet/${ACME}/${bName}/cmd`)).toBe(128);
    expect(await granted(`fleet/${ACME}/+/cmd`)).toBe(128);
    expect(await granted(`fleet/${GLOBEX}/cmd`)).toBe(128);
    expect(await granted('fleet/#')).toBe(128);
    expect(await granted(`fleet/${ACME}/${bName}/reply`)).toBe(128);
    await client.endAsync();
  });

  it('never takes a device’s word for another device, in its entity or another', async () => {
    const devB = await connectDevice(s, ACME, b);
    const devG = await connectDevice(s, GLOBEX, g);
    const before = s.app.devices.stats.snapshot();
    const forger = await connectRaw(s, a);
    forger.on('error', () => {});
    // Published with QoS 0: a broker that disconnects the offender has nothing to acknowledge.
    // Each resolves once written to the socket, or when the broker has closed the connection.
    const forge = (topic: string, body: object) =>
      new Promise<void>((resolve) => {
        forger.once('close', () => resolve());
        forger.publish(topic, JSON.stringify(body), () => resolve());
      });
    await Promise.all([
      forge(`fleet/${ACME}/${bName}/state`, { state: 'FORGED', battery: 1 }),
      forge(`fleet/${GLOBEX}/${gName}/state`, { state: 'FORGED', battery: 1 }),
      forge(`fleet/${GLOBEX}/${gName}/cmd`, { id: 'x', type: 'reboot' }),
    ]);
    await forger.endAsync();
    // Positive controls, sent after the forgeries through the same broker: device a's own state
    // reaches the server, and a command on g's entity topic reaches g. Without them the absences
    // below would also hold if nothing got through at all (an external broker drops the forgeries
    // without a word).
    const devA = await connectDevice(s, ACME, a, false);
    await devA.publish('state', { state: 'ALLOCATED', battery: 77 });
    await eventually(async () => {
      await s.app.devices.telemetry.flush();
      expect((await device(ACME, aName)).state.current).toBe('ALLOCATED');
    });
    const answered = s.request('POST', `/api/v1/tenant/${GLOBEX}/mqtt/general/entity`, {
      token: root,
      body: { payload: { type: 'vibrate', song: 'V102' } },
    });
    const cmd = await devG.nextCommand();
    expect(cmd.topic).toBe(`fleet/${GLOBEX}/cmd`);
    await devG.publish('reply', { id: cmd.body.id, status: 'success' });
    expect((await answered).status).toBe(200);

    await s.app.devices.telemetry.flush();
    expect((await device(ACME, bName)).state.current).toBeNull();
    expect((await device(GLOBEX, gName)).state.current).toBeNull();
    expect(devB.received).toEqual([]);
    expect(devG.received).toEqual([cmd]);
    // The embedded broker counts the refusals; an external one drops them before the server sees them.
    if (!process.env.MQTT_URL)
      expect(s.app.devices.stats.snapshot().dropped.refused_topic).toBeGreaterThan(before.dropped.refused_topic);
    await Promise.all([devA.close(), devB.close(), devG.close()]);
  });

  it('sends an entity-wide command to that entity’s devices only', async () => {
    const devA = await connectDevice(s, ACME, a);
    const devG = await connectDevice(s, GLOBEX, g);
    await eventually(async () => expect((await device(ACME, aName)).online).toBe(true));
    const answered = s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/entity`, {
      token: root,
      body: { payload: { type: 'vibrate', song: 'V101' } },
    });
    const cmd = await devA.nextCommand();
    expect(cmd.topic).toBe(`fleet/${ACME}/cmd`);
    expect(cmd.body).toMatchObject({ type: 'vibrate', payload: { song: 'V101' } });
    await devA.publish('reply', { id: cmd.body.id, status: 'success' });
    const res = await answered;
    expect(res.status).toBe(200);
    expect(res.body.data.counts.succeeded).toBe(1);
    expect(devG.received).toEqual([]);
    await Promise.all([devA.close(), devG.close()]);
  });
});

describe('telemetry', () => {
  it('merges state reports into the device list and counts them as signs of life', async () => {
    const name = hex();
    const creds = await registerDevice(s, root, ACME, name);
    const before = await device(ACME, name);
    const dev = await connectDevice(s, ACME, creds, false);
    await dev.publish('state', { state: 'DISPENSING', battery: 81, fw_version: '2.1.0', is_charging: false });
    await dev.publish('state', { battery: 79 });
    const row = await eventually(async () => {
      const list = await s.request('GET', `/api/v1/tenant/${ACME}/device?limit=50&search=${name}`, { token: root });
      const found = list.body.data.find((d: { name: string }) => d.name === name);
      expect(found.battery).toBe(79);
      return found;
    });
    expect(row).toMatchObject({
      state: { current: 'DISPENSING' },
      fw_version: '2.1.0',
      is_charging: false,
      online: true,
    });
    expect(Date.parse(row.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));

    // Going to sleep: not a sign of life, but the device is no longer connected.
    await dev.publish('state', { online: false });
    await dev.close();
    await eventually(async () => expect((await device(ACME, name)).online).toBe(false));
    expect((await device(ACME, name)).updated_at).toBe(row.updated_at);
  });

  it('drops and counts bad messages without harm', async () => {
    const name = hex();
    const dev = await connectDevice(s, ACME, await registerDevice(s, root, ACME, name));
    const before = s.app.devices.stats.snapshot().dropped;
    await dev.publish('state', 'not json{');
    await dev.publish('state', { battery: 'full' });
    await dev.publish('state', [1, 2, 3]);
    await dev.publish('state', { state: 'x'.repeat(20_000) });
    await dev.publish('reply', { id: 'not-a-uuid', status: 'success' });
    await dev.publish('reply', { id: '00000000-0000-4000-8000-000000000000', status: 'success' });
    await dev.publish('state', { battery: 42 });
    await eventually(async () => expect((await device(ACME, name)).battery).toBe(42));
    const after = s.app.devices.stats.snapshot().dropped;
    expect(after.bad_json - before.bad_json).toBe(1);
    expect(after.bad_message - before.bad_message).toBe(3);
    expect(after.too_large - before.too_large).toBe(1);
    expect(after.unknown_command - before.unknown_command).toBe(1);
    expect((await s.request('GET', '/healthz')).status).toBe(200);
    await dev.close();
  });
});
