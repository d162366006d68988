import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SimulatedDevice } from '@fleet/simulator/device';
import { groups, kiosks } from '../../src/db/schema.ts';
import { eventually, randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * The kiosk manager as its own process (src/kiosk-manager/main.ts), on the API's data: with
 * PostgreSQL, the broker and Redis (scale mode) beside the running API server; with the embedded
 * defaults on the server's DATA_DIR once the server has stopped (PGlite has one owner), with its
 * own embedded broker.
 */

const serverDir = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess | undefined;
let s: TestServer | undefined;
let sim: SimulatedDevice | undefined;
const scale = Boolean(process.env.DATABASE_URL);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

afterAll(async () => {
  await sim?.stop();
  child?.kill('SIGKILL');
  if (s) {
    if (scale) await s.close();
    else await fs.rm(s.config.dataDir, { recursive: true, force: true });
  }
});

describe('the kiosk manager on its own', () => {
  it('allocates and returns with the same tokens, answering at its own port', async () => {
    const started = await startWithTwoEntities();
    s = started.s;
    const { root, acme } = started;
    await s.app.db.insert(kiosks).values({ entity: acme, name: 'lobby', latitude: 1, longitude: 2 });
    await s.app.db.insert(groups).values([
      { entity: acme, name: 'lobby_a', kiosk: 'lobby', capacity: 5 },
      { entity: acme, name: 'lobby_b', kiosk: 'lobby', capacity: 5 },
    ]);
    const name = randomDeviceId();
    const created = await s.request('POST', `/api/v1/tenant/${acme}/device`, {
      token: root,
      body: { document: { name, description: 'unit' } },
    });
    expect(created.status).toBe(201);
    await s.request('POST', `/api/v1/tenant/${acme}/dispenser/lobby_a/put/${name}`, { token: root });

    const port = await freePort();
    const mqttPort = scale ? 0 : await freePort();
    const c = s.config;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      KIOSK_MANAGER_PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: c.dataDir,
      LOG_LEVEL: 'warn',
      MQTT_PORT: String(mqttPort),
      COMMAND_REPLY_TIMEOUT_MS: '5000',
      PUBLIC_URL: 'https://console.example.test',
      ...(c.DATABASE_URL ? { DATABASE_URL: c.DATABASE_URL } : {}),
      ...(c.MQTT_URL ? { MQTT_URL: c.MQTT_URL, MQTT_SHARE_GROUP: c.MQTT_SHARE_GROUP } : {}),
      ...(c.REDIS_URL ? { REDIS_URL: c.REDIS_URL } : {}),
    };
    const mqttUrl = scale ? s.mqttUrl : `mqtt://127.0.0.1:${mqttPort}`;
    // Embedded: the database has one owner at a time; the server hands it over.
    if (!scale) await s.app.close();

    child = spawn(process.execPath, ['--import', 'tsx', 'src/kiosk-manager/main.ts'], {
      cwd: serverDir,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => expect((await fetch(`${base}/readyz`)).status).toBe(200), 30_000);
    // Only the kiosk manager: the API is not served here.
    expect(
      (await fetch(`${base}/api/v1/tenant/${acme}/device`, { headers: { accept: 'application/json' } })).status,
    ).toBe(404);

    sim = new SimulatedDevice({
      id: name,
      entity: acme,
      secret: created.body.data.mqtt.password,
      url: mqttUrl,
      sleeps: false,
      status: { fwVersion: '1.0.0', state: 'WAITING' },
    });
    sim.start();
    await sim.whenOnline();
    const call = (p: string, body: unknown) =>
      fetch(`${base}/kiosk-manager/v1/kiosk/${acme}/lobby/${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${root}` },
        body: JSON.stringify(body),
      });
    // The process may see the device's subscription a moment after the device is online: then
    // the command is held (202) and delivered as the process records it online.
    const first = await call('allocate', { visitor: 'guest_1', device: name, apps: {} });
    expect([200, 202]).toContain(first.status);
    expect(((await first.json()) as { data: { visitor: string } }).data.visitor).toBe('guest_1');
    await eventually(async () => expect(sim!.model.reportedState).toBe('ALLOCATED'), 15_000);
    const returned = await call('return', { device: name, dispenser: 'lobby_b' });
    expect(returned.status).toBe(200);
    expect(((await returned.json()) as { data: { returned_to: string } }).data.returned_to).toBe('lobby_b');
    expect(await call('allocate', { visitor: 'x', device: name, apps: {} }).then((r) => r.status)).toBe(200);
    // The console on its own origin may call it (CORS preflight and answer).
    const preflight = await fetch(`${base}/kiosk-manager/v1/kiosk/${acme}/lobby/allocate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://console.example.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://console.example.test');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const stranger = await fetch(`${base}/kiosk-manager/v1/kiosk/${acme}/lobby/allocate`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example.test' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    const anonymous = await fetch(`${base}/kiosk-manager/v1/kiosk/${acme}/lobby/allocate`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  }, 60_000);
});
