import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_NAMESPACE } from '@fleet/shared/beacon-constants';
import {
  balancerPrerequisites,
  launchChromium,
  SHIPPED_CONFIG,
  SHOTS,
  startBalancer,
  startInstances,
  until,
  uploadEntityFiles,
  type Balancer,
  type Instance,
} from '../helpers/balancer.ts';
import { beaconForm } from '../helpers/beacons.ts';
import { connectDevice, registerDevice, type TestDevice } from '../helpers/devices.ts';
import { ADMIN, requester, type TestServer } from '../helpers/server.ts';
import { createAccount, signIn } from '../helpers/session.ts';
import { readEvents, type SseEvent } from '../helpers/sse.ts';

/**
 * Three API instances (their own processes) behind HAProxy from Debian, round robin with no
 * stickiness (docs/operations.md, "Behind a load balancer"). Through the balancer: sign-in, lists,
 * a provisioning event stream and sockets; then the instance serving the stream is killed with
 * SIGKILL. The stream resumes on another instance from its last event id with nothing missed or
 * repeated, the sockets reconnect and hear live events again, and the requests made meanwhile
 * are counted: which failed, and for how long.
 */
const { haproxy: HAPROXY, mqttUrl, browserReady } = balancerPrerequisites('load-balancer');

/** The console's pause before it opens a dropped stream again (apps/web/src/lib/sse.ts). */
const STREAM_RETRY_MS = 1_000;
const FILES = 6;
const ENTITY = `lb_${randomBytes(3).toString('hex')}`;

let instances: Instance[];
let closeInstances: () => Promise<void>;
let lb: Balancer;
let api: TestServer['request'];
let token = '';
let device: TestDevice;

beforeAll(async () => {
  ({ instances, close: closeInstances } = await startInstances(3));
  lb = await startBalancer(HAPROXY, instances);
  api = requester(lb.url);
  token = (await signIn({ request: api }, ADMIN.name, ADMIN.password)).access_token;
  await api('POST', '/api/v1/tenant', { token, body: { document: { name: { name: ENTITY, description: '' } } } });
  await uploadEntityFiles(lb.url, token, ENTITY, FILES);
  device = await connectDevice({ mqttUrl }, ENTITY, await registerDevice({ request: api }, token, ENTITY, hex()));
}, 120_000);
afterAll(async () => {
  await device?.close();
  await lb?.close();
  await closeInstances?.();
});

function hex() {
  return randomBytes(6).toString('hex');
}

/**
 * Follows a provisioning stream as the console does: when the connection drops, it opens it again
 * after a pause, with Last-Event-ID, until the session's final event. `gate` holds a reconnection
 * until the test lets it go.
 */
function follow(url: string, o: { gate: () => Promise<void> }) {
  const events: SseEvent[] = [];
  const servedBy: string[] = [];
  let drops = 0;
  let last: string | undefined;
  const done = (async () => {
    for (;;) {
      await readEvents(url, token, {
        ...(last ? { lastEventId: last } : {}),
        onOpen: (res) => servedBy.push(`${res.status} ${res.headers.get('x-served-by')}`),
        onEvent: (e) => {
          if (e.event === 'connection') return;
          events.push(e);
          last = e.id;
        },
      }).catch(() => undefined);
      if (events.at(-1)?.event === 'provision_completed') return;
      drops++;
      await Promise.all([new Promise((r) => setTimeout(r, STREAM_RETRY_MS)), o.gate()]);
    }
  })();
  return { events, servedBy, drops: () => drops, done };
}

/**
 * GETs the device list through the balancer, three at a time with no pause (so some are in flight
 * on the instance when it dies), until stopped: when each answered, and whether it was right.
 */
function requestLoop() {
  const log: Array<{ at: number; ok: boolean }> = [];
  let stop = false;
  const one = async () => {
    while (!stop) {
      const res = await api('GET', `/api/v1/tenant/${ENTITY}/device`, { token }).catch(() => null);
      log.push({ at: Date.now(), ok: res?.status === 200 && res.body.data.length === 1 });
    }
  };
  const done = Promise.all([one(), one(), one()]);
  return {
    log,
    stop: () => {
      stop = true;
      return done;
    },
  };
}

/**
 * A browser's socket on `/beacon-demo` through the balancer, reconnecting as Socket.IO does by
 * default: a WebSocket, or long-polling (with cookies, as a browser keeps them).
 */
function beaconSocket(transport: 'websocket' | 'polling' = 'websocket') {
  const socket: Socket = io(lb.url + BEACON_NAMESPACE, {
    auth: { token, entity: ENTITY },
    transports: [transport],
    withCredentials: true,
    forceNew: true,
  });
  const heard: string[] = [];
  let disconnects = 0;
  socket.on('beacon_event', (e: { beacon_mac: string }) => heard.push(e.beacon_mac));
  socket.on('disconnect', () => disconnects++);
  let answered = false;
  socket.once('connection_response', () => (answered = true));
  const ready = until(`a ${transport} socket connects through the balancer`, () => answered);
  return { socket, heard, ready, disconnects: () => disconnects };
}

describe('three API instances behind HAProxy, one killed', () => {
  it('runs the configuration docs/operations.md shows', () => {
    const operations = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../docs/operations.md'), 'utf8');
    expect(operations).toContain(fs.readFileSync(SHIPPED_CONFIG, 'utf8'));
  });

  it('keeps the console working: the stream resumes with nothing missed, sockets reconnect, GETs survive', async () => {
    const list = await api('GET', `/api/v1/tenant/${ENTITY}/device`, { token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: { name: string }) => d.name)).toEqual([device.name]);

    // Three WebSockets opened one after another: round robin puts one on each instance. Then one
    // long-polling socket: its requests stay on one instance by the balancer's cookie.
    const mac = hex();
    expect(
      (await api('POST', `/api/v1/tenant/${ENTITY}/beacon-configs`, { token, body: beaconForm(mac) })).status,
    ).toBe(201);
    const websockets = [beaconSocket(), beaconSocket(), beaconSocket()];
    for (const s of websockets) await s.ready;
    const polling = beaconSocket('polling');
    await polling.ready;
    const sockets = [...websockets, polling];
    const sighting = async () => {
      const before = sockets.map((s) => s.heard.length);
      await device.publish('beacon', { beacon_mac: mac, rssi: -60 });
      await until('every socket hears the sighting', () => sockets.every((s, i) => s.heard.length > before[i]!));
    };
    await sighting();

    // A provisioning session: its events are numbered 1..N; the stream follows them through the balancer.
    const path = `/api/v1/tenant/${ENTITY}/provision/${device.name}`;
    const command = device.nextCommand();
    expect((await api('POST', path, { token })).status).toBe(200);
    const { body: cmd } = await command;
    const session = cmd.payload.session_id as string;
    const files = cmd.payload.files.map((f: { device_path: string }) => f.device_path) as string[];
    expect(files).toHaveLength(FILES);
    let n = 0;
    const report = (body: object) =>
      device.publish('events', { type: 'provision', session_id: session, n: ++n, ...body });
    const fileEvents = async (paths: string[]) => {
      for (const device_path of paths)
        for (const status of ['queued', 'downloading', 'completed'])
          await report({ phase: 'file', device_path, status });
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stream = follow(lb.url + path + '/events', { gate: () => gate });

    // Before the kill: 5 events (provision_started, provisioning_ready, one file's three).
    await report({ phase: 'ready' });
    await fileEvents(files.slice(0, 1));
    await until('the stream has the first events', () => stream.events.length === 5);
    const victimName = stream.servedBy[0]!.split(' ')[1]!;
    const victim = instances.find((i) => i.name === victimName)!;
    expect(victim).toBeDefined();
    const loop = requestLoop();
    await until('the request loop runs', () => loop.log.length >= 15);

    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    await until('the stream sees its connection cut', () => stream.drops() === 1);
    await until('HAProxy takes the killed instance out', async () => (await lb.states())[victimName] === 'DOWN');
    const downAfterMs = Date.now() - killedAt;

    // During: the stream is away (its reconnection waits for these); the device goes on reporting.
    await fileEvents(files.slice(1, 3));
    release();
    await until('the stream is open again', () => stream.servedBy.length === 2);
    const resumedAfterMs = Date.now() - killedAt;
    // After: the rest of the session on the instances left.
    await fileEvents(files.slice(3));
    await report({ phase: 'finalizing' });
    await report({ phase: 'completed' });
    await stream.done;

    const total = 2 + 3 * FILES + 2; // started, ready, the files', finalizing, completed
    const ids = stream.events.map((e) => e.id);
    const missed = Array.from({ length: total }, (_, i) => `${session}:${i + 1}`).filter((id) => !ids.includes(id));
    expect(stream.servedBy[1]).toMatch(/^200 api\d$/);
    expect(stream.servedBy[1]).not.toBe(`200 ${victimName}`);
    expect({ missed, ids }).toEqual({
      missed: [],
      ids: Array.from({ length: total }, (_, i) => `${session}:${i + 1}`),
    });

    // The socket that was on the killed instance reconnected; every socket hears live events again.
    expect(websockets.reduce((sum, s) => sum + s.disconnects(), 0)).toBe(1);
    await until('every socket is connected again', () => sockets.every((s) => s.socket.connected));
    await sighting();
    for (const s of sockets) s.socket.disconnect();

    // Keep the loop going a little past the end: requests after the kill's effects must all pass.
    const afterFrom = loop.log.length;
    await until('requests after the resume', () => loop.log.length >= afterFrom + 30);
    await loop.stop();
    const failed = loop.log.filter((r) => r.at >= killedAt && !r.ok);
    const gapMs = failed.length ? failed.at(-1)!.at - killedAt : 0;
    console.log(
      `[load-balancer] killed ${victimName}: HAProxy marked it DOWN after ${downAfterMs} ms; the stream resumed ` +
        `on ${stream.servedBy[1]!.split(' ')[1]} after ${resumedAfterMs} ms with ${missed.length} of ${total} events ` +
        `missed; ${failed.length} of ${loop.log.filter((r) => r.at >= killedAt).length} GETs failed after the kill, ` +
        `the last ${gapMs} ms after it; the polling socket was ${polling.disconnects() ? '' : 'not '}on it`,
    );
    expect(gapMs).toBeLessThan(5_000);
    expect(loop.log.slice(afterFrom).every((r) => r.ok)).toBe(true);
  }, 45_000);

  it.skipIf(!browserReady)(
    'shows the console live through the balancer before and after an instance dies',
    async () => {
      const boss = await createAccount({ request: api }, token, {
        name: `boss_${hex()}`,
        entity: ENTITY,
        subtype: 'admin',
      });
      const browser = await launchChromium();
      try {
        const values = {
          username: boss.name,
          entity: ENTITY,
          refreshToken: boss.refresh_token,
          accessToken: boss.access_token,
        };
        const localStorage = Object.entries(values).map(([k, value]) => ({ name: `fleet.${k}`, value }));
        const context = await browser.newContext({
          baseURL: lb.url,
          viewport: { width: 1280, height: 800 },
          storageState: { cookies: [], origins: [{ origin: lb.url, localStorage }] },
        });
        const page = await context.newPage();
        // Which instance each of the page's WebSockets reached: the balancer's header on the handshake.
        const cdp = await context.newCDPSession(page);
        const socketsOn: string[] = [];
        cdp.on('Network.webSocketHandshakeResponseReceived', (e) => {
          const h = e.response.headers as Record<string, string>;
          socketsOn.push(h['x-served-by'] ?? h['X-Served-By'] ?? '?');
        });
        await cdp.send('Network.enable');
        const sighting = async (patient: string) => {
          const mac = hex();
          const form = beaconForm(mac, undefined, { patient_name: patient });
          expect((await api('POST', `/api/v1/tenant/${ENTITY}/beacon-configs`, { token, body: form })).status).toBe(
            201,
          );
          await device.publish('beacon', { beacon_mac: mac, rssi: -55 });
          await page.getByTestId('feed-item').filter({ hasText: patient }).first().waitFor({ timeout: 15_000 });
        };
        await page.goto('/beacon-demo');
        await page.getByRole('status', { name: 'Connected' }).waitFor({ timeout: 15_000 });
        await sighting('Before Kill');
        fs.mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: `${SHOTS}/load-balancer-before-kill.png` });

        const victim = instances.find((i) => i.name === socketsOn.at(-1))!;
        expect(victim.child.exitCode).toBeNull();
        victim.child.kill('SIGKILL');
        await victim.exited;
        await until('the page opens its socket again on an instance left', () => socketsOn.length === 2, 20_000);
        expect(socketsOn[1]).not.toBe(victim.name);
        await page.getByRole('status', { name: 'Connected' }).waitFor({ timeout: 15_000 });
        await sighting('After Kill');
        await goThrough(page);
        await page.screenshot({ path: `${SHOTS}/load-balancer-after-kill.png` });
        console.log(`[load-balancer] browser: socket on ${socketsOn[0]}, killed; reconnected on ${socketsOn[1]}`);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});

/** The page still loads what it asks the API for after the kill: the beacons' list in the manage dialog. */
async function goThrough(page: Page) {
  await page.getByRole('button', { name: 'Manage Beacons' }).click();
  const modal = page.getByRole('dialog', { name: 'Manage Beacons' });
  await modal.getByText('After Kill').waitFor();
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'hidden' });
}
