import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, eventually, registerDevice, type TestDevice } from '../helpers/devices.ts';
import { ADMIN, startPeer, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';
import { readEvents, type SseEvent } from '../helpers/sse.ts';
import { upload } from '../helpers/uploads.ts';

/**
 * Two API instances: the session starts through B, the device's reports reach either one
 * (shared subscription), and a watcher on A sees every event, in order, through Redis.
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL || !process.env.MQTT_URL) {
  throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
}

const ENTITY = `scale_${randomBytes(3).toString('hex')}`;
let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;
let token = '';
let d: TestDevice;

beforeAll(async () => {
  a = await startServer({ JWT_SECRET: 'scale-test-secret-shared-by-both-instances-0123' });
  b = await startPeer(a);
  token = (await signIn(a, ADMIN.name, ADMIN.password)).access_token;
  await a.request('POST', '/api/v1/tenant', { token, body: { document: { name: { name: ENTITY, description: '' } } } });
  for (let i = 0; i < 5; i++) {
    const res = await upload(a, `/api/v1/tenant/${ENTITY}/files`, token, {
      fields: { level: 'entity', entity_id: ENTITY, file_device_path: `data/f${i}.bin` },
      filename: `f${i}.bin`,
      bytes: 100,
    });
    expect(res.status).toBe(201);
  }
  const name = randomBytes(6).toString('hex');
  d = await connectDevice(a, ENTITY, await registerDevice(a, token, ENTITY, name));
  await eventually(async () => {
    const dev = await a.request('GET', `/api/v1/tenant/${ENTITY}/device/${name}`, { token });
    expect(dev.body.data.online).toBe(true);
  });
});
afterAll(async () => {
  await d?.close();
  await b?.close();
  await a?.close();
});

describe('provisioning across API instances', () => {
  it('a watcher on instance A follows a session started and driven through instance B', async () => {
    const path = `/api/v1/tenant/${ENTITY}/provision/${d.name}`;
    const command = d.nextCommand();
    const started = await b.request('POST', path, { token });
    expect(started.status).toBe(200);
    const { body: cmd } = await command;
    const session = cmd.payload.session_id as string;
    const watching = readEvents(a.url + path + '/events', token);
    let n = 0;
    const report = (body: object) => d.publish('events', { type: 'provision', session_id: session, n: ++n, ...body });
    await report({ phase: 'ready' });
    for (const f of cmd.payload.files) {
      await report({ phase: 'file', device_path: f.device_path, status: 'downloading' });
      await report({ phase: 'file', device_path: f.device_path, status: 'completed' });
    }
    await report({ phase: 'finalizing' });
    await report({ phase: 'completed' });
    const { events } = await watching;
    expect(events.map((e) => e.event)).toEqual([
      'connection',
      'provision_started',
      'provisioning_ready',
      ...Array<string>(10).fill('file_updated'),
      'provision_finalizing',
      'provision_completed',
    ]);
    expect(events.slice(1).map((e) => e.id)).toEqual(events.slice(1).map((_, i) => `${session}:${i + 1}`));
    expect(events.at(-1)!.data).toMatchObject({ outcome: 'success', completed_files: 5 });
    // Both instances heard some of the device's reports.
    expect(a.app.devices.stats.received).toBeGreaterThan(0);
    expect(b.app.devices.stats.received).toBeGreaterThan(0);
  }, 30_000);

  it('replays from Last-Event-ID on whichever instance the client reconnects to', async () => {
    const path = `/api/v1/tenant/${ENTITY}/provision/${d.name}`;
    const command = d.nextCommand();
    expect((await a.request('POST', path, { token })).status).toBe(200);
    const { body: cmd } = await command;
    const session = cmd.payload.session_id as string;
    let n = 0;
    const report = (body: object) => d.publish('events', { type: 'provision', session_id: session, n: ++n, ...body });
    const driving = (async () => {
      await report({ phase: 'ready' });
      for (const f of cmd.payload.files) {
        await report({ phase: 'file', device_path: f.device_path, status: 'queued' });
        await report({ phase: 'file', device_path: f.device_path, status: 'downloading' });
        await report({ phase: 'file', device_path: f.device_path, status: 'completed' });
      }
      await report({ phase: 'finalizing' });
      await report({ phase: 'completed' });
    })();
    const seen: SseEvent[] = [];
    let last: string | undefined;
    for (let turn = 0; ; turn++) {
      const part = await readEvents((turn % 2 ? b.url : a.url) + path + '/events', token, {
        ...(last ? { lastEventId: last } : {}),
        stopAfter: (e) => e.event !== 'connection',
      });
      const got = part.events.filter((e) => e.event !== 'connection');
      seen.push(...got);
      if (got.length) last = got.at(-1)!.id;
      if (part.closedByServer) break;
    }
    await driving;
    expect(seen.map((e) => e.id)).toEqual(Array.from({ length: 2 + 15 + 2 }, (_, i) => `${session}:${i + 1}`));
  }, 30_000);
});
