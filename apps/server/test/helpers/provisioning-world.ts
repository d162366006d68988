import { afterAll, beforeAll, expect } from 'vitest';
import { connectDevice, eventually, randomDeviceId, registerDevice, type TestDevice } from './devices.ts';
import type { TestServer } from './server.ts';
import { readEvents, type SseEvent } from './sse.ts';
import { startForUploads, upload } from './uploads.ts';

/**
 * The world of the provisioning test files (integration/provisioning*.test.ts): a server with
 * ACME's site, groups and files, and a device speaking the protocol by hand. The bindings are
 * live: they hold the server once `useProvisioningWorld()`'s beforeAll has run.
 */
export let s: TestServer;
export let ACME = '';
export let GLOBEX = '';
export let t: Record<'admin' | 'other' | 'operator', string>;
export const open: TestDevice[] = [];
export const TIMEOUT_MS = 1500;

/**
 * Starts the server of a provisioning test file: ACME with a site, groups and files, GLOBEX beside
 * it. With `shared`, on the worker's server (helpers/shared-server.ts).
 */
export function useProvisioningWorld(opts: { shared?: boolean } = {}): void {
  beforeAll(async () => {
    ({
      s,
      acme: ACME,
      globex: GLOBEX,
      tokens: t,
    } = await startForUploads({ PROVISION_TIMEOUT_MS: String(TIMEOUT_MS) }, opts));
    const site = await s.request('POST', `/api/v1/tenant/${ACME}/site`, {
      token: t.admin,
      body: { document: { name: 'north', description: '', gps_coordinates: [52.1, 4.3] } },
    });
    const group = await s.request('POST', `/api/v1/tenant/${ACME}/dispenser`, {
      token: t.admin,
      body: { document: { name: 'line_2', description: '', location: { site: 'north' } } },
    });
    expect(group.status).toBe(201);
    const files: Array<Record<string, string>> = [
      { level: 'entity', entity_id: ACME, file_device_path: 'config/app.json', name: 'entity-app.json' },
      { level: 'entity', entity_id: ACME, file_device_path: 'sounds/bell.wav', name: 'bell.wav' },
      { level: 'site', site_id: site.body.data.id, file_device_path: 'site/map.png', name: 'map.png' },
      { level: 'group', group_id: group.body.data.id, file_device_path: 'config/app.json', name: 'group-app.json' },
    ];
    const many = await s.request('POST', `/api/v1/tenant/${ACME}/dispenser`, {
      token: t.admin,
      body: { document: { name: 'many', description: '' } },
    });
    for (let i = 0; i < 34; i++) {
      files.push({
        level: 'group',
        group_id: many.body.data.id,
        file_device_path: `data/f${i}.bin`,
        name: `f${i}.bin`,
      });
    }
    for (const { name, ...fields } of files) {
      if (!name) continue;
      const res = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, { fields, filename: name, bytes: 64 });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await Promise.all(open.map((d) => d.close()));
    await s?.close();
  });
}

/** A connected device of ACME in group line_2 (so entity, site and group files apply). */
export async function device(inGroup = true): Promise<TestDevice> {
  const name = randomDeviceId();
  const creds = await registerDevice(s, t.admin, ACME, name);
  if (inGroup) {
    const put = await s.request('PUT', `/api/v1/tenant/${ACME}/device/${name}`, {
      token: t.admin,
      body: { operator: { $set: { group: 'line_2' } } },
    });
    expect(put.status).toBe(200);
  }
  const d = await connectDevice(s, ACME, creds);
  open.push(d);
  await eventually(async () => {
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: t.admin });
    expect(dev.body.data.online).toBe(true);
  });
  return d;
}

export const path = (d: TestDevice, tail = '') => `/api/v1/tenant/${ACME}/provision/${d.name}${tail}`;
export const start = (d: TestDevice) => s.request('POST', path(d), { token: t.operator });
export const watch = (d: TestDevice, lastEventId?: string) =>
  readEvents(s.url + path(d, '/events'), t.operator, lastEventId ? { lastEventId } : {});

/** Starts a session and answers the provision command the device received. */
export async function begin(d: TestDevice) {
  const command = d.nextCommand();
  const res = await start(d);
  expect(res.status).toBe(200);
  const cmd = (await command).body;
  expect(cmd).toMatchObject({ type: 'provision', id: res.body.data.session_id });
  return { session: res.body.data.session_id as string, files: cmd.payload.files as Array<any> };
}

/** The device's reports, numbered per session (`n`) as the protocol asks. */
export const numbers = new Map<string, number>();
export const report = (d: TestDevice, session: string, body: object) => {
  const n = (numbers.get(session) ?? 0) + 1;
  numbers.set(session, n);
  return d.publish('events', { type: 'provision', session_id: session, n, ...body });
};

/** Plays a session on the device: every file queued, downloading, then completed unless in `failing`. */
export async function play(
  d: TestDevice,
  session: string,
  files: Array<{ device_path: string }>,
  failing: string[] = [],
) {
  await report(d, session, { phase: 'ready' });
  for (const f of files) await report(d, session, { phase: 'file', device_path: f.device_path, status: 'queued' });
  for (const f of files) {
    await report(d, session, { phase: 'file', device_path: f.device_path, status: 'downloading' });
    const failed = failing.includes(f.device_path);
    await report(d, session, {
      phase: 'file',
      device_path: f.device_path,
      status: failed ? 'failed' : 'completed',
      ...(failed ? { error: 'hash mismatch' } : {}),
    });
  }
  await report(d, session, { phase: 'finalizing' });
  await report(d, session, { phase: 'completed' });
}

export const names = (events: SseEvent[]) => events.map((e) => e.event);
export const fileEvents = (n: number) => Array<string>(n * 3).fill('file_updated');
