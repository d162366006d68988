import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { connectDevice, eventually, registerDevice, type TestDevice } from './devices.ts';
import type { TestServer } from './server.ts';
import { startForUploads, upload } from './uploads.ts';

export let s: TestServer;
export let ACME = '';
export let GLOBEX = '';
export let t: Record<'admin' | 'other' | 'operator', string>;
export let fw = '';
/** Every device `fleet` connected, by name. */
export const devices: TestDevice[] = [];

/**
 * The world of the rollout test files (integration/rollout*.test.ts): a server with ACME's firmware
 * 2.0.0 for CC1 and devices answering updates by hand. The bindings are live: they hold the server
 * once `useRolloutWorld()`'s beforeAll has run. With `shared`, on the worker's server.
 */
export function useRolloutWorld(env: Record<string, string> = {}, opts: { shared?: boolean } = {}): void {
  beforeAll(async () => {
    ({ s, acme: ACME, globex: GLOBEX, tokens: t } = await startForUploads(env, opts));
    const up = await upload(s, `/api/v1/tenant/${ACME}/firmware`, t.admin, {
      field: 'firmware_file',
      fields: { level: 'entity', entity_id: ACME, version: '2.0.0', device_type: 'CC1', description: '' },
      bytes: 1000,
    });
    fw = up.body.data.id;
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
    await s?.close();
  });
}

export const api = (method: string, path: string, body?: object, token = t.admin) =>
  s.request(method, `/api/v1/tenant/${ACME}/rollouts${path}`, { token, ...(body && { body }) });

export type Behaviour = 'ok' | 'bad' | 'silent' | 'current' | 'reply-lost';
/** How each device answers an update; a test changes it (the image fixed). */
export const mode = new Map<string, Behaviour>();
/**
 * `n` connected CC1 devices named `<prefix><i>`: each answers an update by reporting the new
 * version (ok), refusing it (bad), not at all (silent), or updating with its reply lost and
 * reporting the new version after its reboot (reply-lost); `current` ones already run 2.0.0.
 */
export async function fleet(prefix: string, behaviours: Behaviour[]) {
  for (const [i, b] of behaviours.entries()) {
    const dev = await connectDevice(s, ACME, await registerDevice(s, t.admin, ACME, nameOf(prefix, i)));
    devices.push(dev);
    if (b === 'current') await dev.publish('state', { state: 'WAITING', fw_version: '2.0.0' });
    mode.set(dev.name, b);
    dev.client.on('message', (_topic, payload) => {
      const cmd = JSON.parse(payload.toString());
      const b = mode.get(dev.name);
      if (cmd.type !== 'dfu' || b === 'silent') return;
      if (b === 'reply-lost') return void dev.publish('state', { state: 'WAITING', fw_version: '2.0.0' });
      const reply =
        b === 'bad'
          ? { status: 'error', error: 'Install failed: bad image' }
          : { status: 'success', data: { fw_version: '2.0.0' } };
      void dev.publish('reply', { id: cmd.id, ...reply });
    });
  }
  await eventually(async () => {
    const [row] = rowsOf<{ n: string }>(
      await s.app.db.execute(sql`select count(*) as n from devices where name like ${`${prefix}%`} and online`),
    );
    expect(Number(row!.n)).toBe(behaviours.length);
    if (behaviours.includes('current')) {
      const [c] = rowsOf<{ n: string }>(
        await s.app.db.execute(
          sql`select count(*) as n from devices where name like ${`${prefix}%`} and fw_version = '2.0.0'`,
        ),
      );
      expect(Number(c!.n)).toBe(behaviours.filter((b) => b === 'current').length);
    }
  });
}

export const prefix = () => randomBytes(4).toString('hex');
/** The 12-hex-digit name of device `i` of a fleet. */
export const nameOf = (p: string, i: number) => `${p}${i.toString(16).padStart(4, '0')}`;
export async function rollout(p: string, more: object = {}) {
  const body = { name: `r ${p}`, firmware_id: fw, target: { kind: 'filter', query: `search=${p}` }, ...more };
  const created = await api('POST', '', body);
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}
export const get = async (id: string) => (await api('GET', `/${id}`)).body.data;
export const act = (id: string, action: string, token = t.admin) => api('POST', `/${id}/${action}`, {}, token);
/** How many firmware updates each device of the rollout was sent. */
export async function sends(p: string) {
  return rowsOf<{ device: string; n: string }>(
    await s.app.db.execute(
      sql`select device, count(*) as n from commands where type = 'dfu' and device like ${`${p}%`} group by device`,
    ),
  );
}
