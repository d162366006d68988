import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import {
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  type TestDevice,
} from '../helpers/devices.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

let s: TestServer;
let ACME = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const image = randomBytes(300_000);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let fw1 = '';

beforeAll(async () => {
  ({ s, acme: ACME, tokens: t } = await startForUploads({}, { shared: true }));
  const up = await upload(s, `/api/v1/tenant/${ACME}/firmware`, t.admin, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: ACME, version: '2.0.0', device_type: 'CC1', description: '' },
    bytes: image,
  });
  fw1 = up.body.data.id;
});
afterAll(async () => s?.close());

const dfu = (name: string, body: object = {}, token = t.operator) =>
  s.request('POST', `/api/v1/tenant/${ACME}/mqtt/dfu/${name}`, { token, body });
const history = (name: string) =>
  s.request('GET', `/api/v1/tenant/${ACME}/device/${name}/commands`, { token: t.admin });
const device = (name: string) => s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: t.admin });

async function online(name = hex()) {
  const dev = await connectDevice(s, ACME, await registerDevice(s, t.admin, ACME, name));
  await eventually(async () => expect((await device(name)).body.data.online).toBe(true));
  return dev;
}

/** Downloads like firmware on a flaky link: the first half, then the rest with Range. */
async function download(url: string) {
  const first = await fetch(url, { headers: { range: `bytes=0-${image.length / 2 - 1}` } });
  expect(first.status).toBe(206);
  const rest = await fetch(url, { headers: { range: `bytes=${image.length / 2}-` } });
  expect(rest.status).toBe(206);
  return Buffer.concat([Buffer.from(await first.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
}

const event = (dev: TestDevice, id: string, phase: string, progress: number) =>
  dev.publish('events', { type: 'dfu', id, phase, progress });

describe('firmware update of one device', () => {
  it('goes out with a signed link, hash and size; progress lands in the history; the new version settles it', async () => {
    const dev = await online();
    const next = dev.nextCommand();
    const res = await dfu(dev.name);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('started');
    expect(res.body.userMessage).toBe(`Firmware update to 2.0.0 started on device ${dev.name}`);
    const cmd = (await next).body;
    expect(cmd.type).toBe('dfu');
    expect(cmd.payload).toMatchObject({ firmware_id: fw1, version: '2.0.0', sha256: sha(image), size: image.length });
    expect(sha(await download(cmd.payload.url))).toBe(sha(image));

    await dev.publish('state', { state: 'DFU' });
    await event(dev, cmd.id, 'downloading', 40);
    await eventually(async () => {
      const [h] = (await history(dev.name)).body.data;
      expect(h).toMatchObject({ type: 'dfu', state: 'sent', progress_phase: 'downloading', progress: 40 });
      expect((await device(dev.name)).body.data.current_download).toBe('Firmware 2.0.0: downloading 40%');
    });
    await dev.publish('state', { state: 'WAITING', fw_version: '2.0.0' });
    await dev.publish('reply', { id: cmd.id, status: 'success', data: { fw_version: '2.0.0' } });
    await eventually(async () => {
      const [h] = (await history(dev.name)).body.data;
      expect(h).toMatchObject({ state: 'succeeded', progress: 100, error: null });
      expect((await device(dev.name)).body.data).toMatchObject({ fw_version: '2.0.0', current_download: null });
    });
    await dev.close();
  });

  it('fails with the reason when the device refuses, or comes back with another version', async () => {
    const dev = await online();
    let next = dev.nextCommand();
    await dfu(dev.name);
    const a = (await next).body;
    await dev.publish('reply', { id: a.id, status: 'error', error: 'hash mismatch' });
    await eventually(async () =>
      expect((await history(dev.name)).body.data[0]).toMatchObject({ state: 'failed', error: 'hash mismatch' }),
    );
    next = dev.nextCommand();
    await dfu(dev.name);
    const b = (await next).body;
    await dev.publish('reply', { id: b.id, status: 'success', data: { fw_version: '1.9.9' } });
    await eventually(async () =>
      expect((await history(dev.name)).body.data[0]).toMatchObject({
        state: 'failed',
        error: 'The device reported version 1.9.9 instead of 2.0.0',
      }),
    );
    await dev.close();
  });

  it('times out after DFU_TIMEOUT_S, not after the command timeout, and clears the progress line', async () => {
    const dev = await online();
    const next = dev.nextCommand();
    await dfu(dev.name);
    const cmd = (await next).body;
    await event(dev, cmd.id, 'downloading', 10);
    await eventually(async () => expect((await device(dev.name)).body.data.current_download).toContain('10%'));
    // Sent a minute ago: long past the command timeout of these tests (1.5 s), well within DFU_TIMEOUT_S.
    await s.app.db.execute(sql`update commands set sent_at = now() - interval '1 minute' where id = ${cmd.id}`);
    await s.app.devices.commands.sweep();
    expect((await history(dev.name)).body.data[0].state).toBe('sent');
    await s.app.db.execute(sql`update commands set sent_at = now() - interval '2 hours' where id = ${cmd.id}`);
    await s.app.devices.commands.sweep();
    expect((await history(dev.name)).body.data[0]).toMatchObject({
      state: 'timed_out',
      error: 'The firmware update did not finish within 30 minutes',
    });
    expect((await device(dev.name)).body.data.current_download).toBeNull();
    await dev.close();
  });

  it('is held for a sleeping device and goes out when it wakes', async () => {
    const name = hex();
    const creds = await registerDevice(s, t.admin, ACME, name);
    const res = await dfu(name);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('queued');
    const dev = await connectDevice(s, ACME, creds);
    const cmd = (await dev.nextCommand(8000)).body;
    expect(cmd.type).toBe('dfu');
    expect((await fetch(cmd.payload.url)).status).toBe(200);
    await dev.close();
  });

  it('answers 409 when no firmware fits the device type, 404 for a foreign firmware id or device', async () => {
    const name = hex();
    await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: t.admin,
      body: { document: { name, description: '', manufacturing_type: 'CC2' } },
    });
    const res = await dfu(name);
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe('No firmware uploaded for CC2 devices');
    expect((await dfu(name, { firmware_id: fw1 })).body.errorInfo.userMessage).toBe(
      'Firmware 2.0.0 is for CC1 devices',
    );
    expect((await dfu(name, { firmware_id: randomUUID() })).status).toBe(404);
    expect((await dfu('ffffffffffff')).status).toBe(404);
    const other = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/dfu/${name}`, { token: t.other, body: {} });
    expect(other.status).toBe(404);
  });
});

describe('firmware update of many devices', () => {
  it('gives each device the firmware of its most specific level, and says how each went out', async () => {
    const group = await s.request('POST', `/api/v1/tenant/${ACME}/dispenser`, {
      token: t.admin,
      body: { document: { name: 'line_1', description: '' } },
    });
    expect(group.status).toBe(201);
    const inGroup = hex();
    const made = await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: t.admin,
      body: { document: { name: inGroup, description: '', manufacturing_type: 'CC1', group: 'line_1' } },
    });
    expect(made.status).toBe(201);
    // A newer image for the group's CC1 devices (the spec sends the type in lower case for groups).
    const groupFw = await upload(s, `/api/v1/tenant/${ACME}/firmware`, t.admin, {
      field: 'firmware_file',
      fields: { level: 'group', group_id: group.body.data.id, version: '2.1.0', device_type: 'cc1', description: '' },
      bytes: 1000,
    });
    expect(groupFw.status).toBe(201);
    const a = await online();
    const sleeper = hex();
    await registerDevice(s, t.admin, ACME, sleeper);
    const next = a.nextCommand();
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/dfu/devices`, {
      token: t.operator,
      body: { devices: [a.name, inGroup, sleeper, 'aaaaaaaaaaaa'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.counts).toMatchObject({ sent: 1, queued: 2, failed: 0 });
    expect(res.body.status).toBe('partial');
    expect(res.body.userMessage).toBe('Update Firmware to 4 devices: 1 started, 2 held until they wake, 1 not found');
    expect((await next).body.payload.version).toBe('2.0.0');
    const held = (await history(inGroup)).body.data[0];
    expect(held.payload).toMatchObject({ firmware_id: groupFw.body.data.id, version: '2.1.0' });
    await a.close();
  });
});
