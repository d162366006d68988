import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { call, DEMO_ENTITY, DEMO_SILENT_DEVICES, provisionDemoDevices } from '../apps/simulator/src/demo-fleet.ts';
import { startFleet, type DeviceCredentials, type Fleet } from '../apps/simulator/src/fleet.ts';
import { ADMIN, chromiumPath, sharedBrowser, signIn } from './helpers/browser.ts';
import { freshDataDir, spawnServer, type ServerProcess } from './helpers/process.ts';

/**
 * SIGTERM under load: in-flight requests (writes among them), connected MQTT devices reporting,
 * a signed-in browser with the beacon screen's live socket open, a request that never finishes (a client still sending its body, as an
 * open event stream would hold its connection), and a supervisor that stopped reading the
 * server's log. The process must be gone within 10 s, and every write it acknowledged kept.
 */
const EXIT_WITHIN_MS = 10_000;

let cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => undefined);
  cleanup = [];
});

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/**
 * The demo fleet's entity and its first `count` devices (as `provisionDemoFleet` makes them), the
 * last 3 never connecting. Not the rest of the demo (accounts, dataviews, sites, kiosks, groups,
 * firmware, files): nothing here reads them, and they were most of the set-up's requests.
 */
async function provisionDevices(url: string, token: string, count: number): Promise<DeviceCredentials[]> {
  const api = { baseUrl: url, admin: ADMIN };
  const tenant = { document: { name: { name: DEMO_ENTITY, description: 'Demo fleet' } } };
  await call(api, 'POST', 'tenant', token, tenant, [201]);
  const devices = await provisionDemoDevices(api, token, count);
  return devices.slice(0, count - DEMO_SILENT_DEVICES);
}

/** Creates devices flat out from `workers` loops until stopped; answers the ids the server acknowledged. */
function writeLoad(url: string, token: string, workers: number) {
  const acknowledged: string[] = [];
  let stop = false;
  let n = 0;
  const loops = Array.from({ length: workers }, async (_, w) => {
    while (!stop) {
      const name = `5d${w.toString(16).padStart(2, '0')}${(n++).toString(16).padStart(8, '0')}`;
      try {
        const res = await fetch(`${url}/api/v1/tenant/demo/device`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ document: { name, description: 'shutdown test', manufacturing_type: 'CC1' } }),
        });
        if (res.status === 201) acknowledged.push(name);
        await res.arrayBuffer();
        // Reads in between: the whole list, streamed.
        await (await fetch(`${url}/api/v1/device?limit=0`, { headers: { authorization: `Bearer ${token}` } })).text();
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });
  return {
    acknowledged,
    async stop() {
      stop = true;
      await Promise.all(loops);
    },
  };
}

/** A request whose body never ends: the server cannot finish it on its own. */
function neverEndingRequest(url: string): AbortController {
  const abort = new AbortController();
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"document":'));
    },
  });
  void fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
    signal: abort.signal,
  } as RequestInit).catch(() => undefined);
  return abort;
}

async function underLoad(script: 'scripts/start.mjs' | 'apps/server/dist/main.js') {
  const dataDir = await freshDataDir();
  cleanup.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  const server = await spawnServer({ script, dataDir });
  cleanup.push(async () => server.child.kill('SIGKILL'));

  const token = await login(server.url);
  const simulated = await provisionDevices(server.url, token, 20);
  const fleet: Fleet = await startFleet({
    devices: simulated,
    url: server.mqttUrl,
    timeScale: 60,
    sleeps: false,
    rampMs: 300,
  });
  cleanup.push(() => fleet.stop());
  if (chromiumPath) {
    // The worker's Chromium (launched once for the files it runs), in a context of this test's own.
    const context = await (await sharedBrowser()).newContext({ baseURL: server.url });
    cleanup.push(() => context.close());
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/device');
    await page.getByRole('table').waitFor();
    // A second tab holds the beacon screen's live Socket.IO connection open.
    const live = await page.context().newPage();
    await live.goto(`/beacon-demo?entity=${DEMO_ENTITY}`);
    await live.getByRole('status', { name: 'Connected' }).waitFor();
  }
  const writes = writeLoad(server.url, token, 6);
  cleanup.push(() => writes.stop());
  const hanging = neverEndingRequest(server.url);
  cleanup.push(async () => hanging.abort());
  // A supervisor that no longer reads the log (the pipe fills), under load for a while.
  server.stopReading();
  await new Promise((r) => setTimeout(r, 3000));
  await expect.poll(() => fleet.stats().online, { timeout: 15_000 }).toBeGreaterThan(0);

  const sentAt = Date.now();
  server.child.kill('SIGTERM');
  const exit = await server.exited(EXIT_WITHIN_MS + 5_000);
  const tookMs = Date.now() - sentAt;
  await writes.stop();
  return { server, exit, tookMs, acknowledged: writes.acknowledged, dataDir };
}

async function expectWritesKept(dataDir: string, acknowledged: string[]) {
  const again: ServerProcess = await spawnServer({ script: 'apps/server/dist/main.js', dataDir });
  cleanup.push(async () => again.child.kill('SIGKILL'));
  const token = await login(again.url);
  const res = await fetch(`${again.url}/api/v1/tenant/demo/device?limit=0`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const names = new Set(((await res.json()) as { data: Array<{ name: string }> }).data.map((d) => d.name));
  expect(acknowledged.filter((n) => !names.has(n))).toEqual([]);
  again.child.kill('SIGTERM');
  expect(await again.exited(EXIT_WITHIN_MS)).toEqual({ code: 0, signal: null });
}

describe('SIGTERM under load', () => {
  it.each([
    ['npm start (scripts/start.mjs forwarding the signal)', 'scripts/start.mjs'],
    ['the server itself', 'apps/server/dist/main.js'],
  ] as const)(
    '%s exits within 10 s and keeps every acknowledged write',
    async (_, script) => {
      const { exit, tookMs, acknowledged, dataDir } = await underLoad(script);
      expect(exit, `still alive ${tookMs} ms after SIGTERM`).not.toBeNull();
      expect(tookMs).toBeLessThan(EXIT_WITHIN_MS);
      expect(acknowledged.length).toBeGreaterThan(0);
      await expectWritesKept(dataDir, acknowledged);
    },
    120_000,
  );
});
