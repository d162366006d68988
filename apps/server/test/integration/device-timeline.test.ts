import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';
import { randomDeviceId as hex, registerDevice, startWithTwoEntities } from '../helpers/devices.ts';

// Issue 26: a device's timeline merges what every table records of it, newest first, paged by time.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({}, { shared: true }));
});
afterAll(async () => s?.close());

const T0 = Date.parse('2026-11-20T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const timeline = (entity: string, name: string, query = '', token = root) =>
  s.request('GET', `/api/v1/tenant/${entity}/device/${name}/timeline${query}`, { token });

/** One event of each kind the timeline reads, a minute apart, written as each feature writes its table. */
async function seedWorld(entity: string, device: string) {
  const db = s.app.db;
  const telemetry = (minute: number, kind: string, state: string, online = true) =>
    db.execute(sql`
      insert into device_telemetry (entity, device, at, kind, online, state, battery)
      values (${entity}, ${device}, ${at(minute)}::timestamptz, ${kind}, ${online}, ${state}, 50)`);
  await telemetry(1, 'online', 'WAITING');
  await telemetry(2, 'report', 'WAITING'); // a plain report: not on the timeline
  await telemetry(3, 'change', 'ALLOCATED');
  const command = (minute: number, type: string, payload: object, state: string) =>
    db.execute(sql`
      insert into commands (id, device, entity, type, payload, target, state, sent_by, created_at, expires_at)
      values (${randomUUID()}, ${device}, ${entity}, ${type}, ${JSON.stringify(payload)}::jsonb, 'device', ${state},
        'admin', ${at(minute)}::timestamptz, ${at(minute + 60)}::timestamptz)`);
  await command(4, 'vibrate', { song: 'V10' }, 'succeeded');
  await command(5, 'dfu', { version: '2.0.0', url: 'https://signed.example/secret' }, 'failed');
  await command(6, 'allocate', {}, 'succeeded'); // shown as the allocation itself
  await db.execute(sql`
    insert into provision_sessions (id, entity, device, status, started_by, created_at)
    values (${randomUUID()}, ${entity}, ${device}, 'completed', 'admin', ${at(7)}::timestamptz)`);
  await db.execute(sql`
    insert into allocations (id, device, entity, kiosk, dispenser, visitor, apps, allocated_by, allocated_at,
      returned_at, returned_by, returned_to, outcome)
    values (${randomUUID()}, ${device}, ${entity}, 'k1', 'd1', 'visitor', '{}'::jsonb, 'admin', ${at(8)}::timestamptz,
      ${at(9)}::timestamptz, 'admin', 'd2', 'returned')`);
  await telemetry(10, 'offline', 'ALLOCATED', false);
}

describe('a device timeline', () => {
  it('merges state, presence, commands, firmware updates, provisioning, allocations and audit entries, newest first', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    await seedWorld(ACME, name);
    const res = await timeline(ACME, name, `?before=${at(11)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { type: string }) => e.type)).toEqual([
      'offline',
      'return',
      'allocation',
      'provisioning',
      'firmware_update',
      'command',
      'state',
      'online',
    ]);
    expect(res.body.next_before).toBeNull();
    const byType = Object.fromEntries(res.body.data.map((e: { type: string }) => [e.type, e]));
    expect(byType.firmware_update.data).toMatchObject({ command: 'dfu', state: 'failed', version: '2.0.0' });
    expect(JSON.stringify(res.body)).not.toContain('signed.example');
    expect(byType.state).toMatchObject({ at: at(3), data: { state: 'ALLOCATED', battery: 50 } });
    expect(byType.return.data).toMatchObject({ returned_to: 'd2' });

    // The registration itself is in the audit log, so at the top of the whole timeline.
    const all = await timeline(ACME, name);
    expect(all.body.data[0]).toMatchObject({ type: 'audit', data: { action: 'device.create', outcome: 'success' } });
  });

  it('pages by `before`: every event once, in order', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    await seedWorld(ACME, name);
    const seen: string[] = [];
    let before: string | null = at(11);
    let pages = 0;
    while (before) {
      const res = await timeline(ACME, name, `?limit=3&before=${before}`);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((e: { at: string; type: string }) => `${e.at} ${e.type}`));
      before = res.body.next_before;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(8);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('never splits one millisecond across pages', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    for (const kind of ['online', 'change', 'offline']) {
      await s.app.db.execute(sql`
        insert into device_telemetry (entity, device, at, kind, online, state)
        values (${ACME}, ${name}, ${at(2)}::timestamptz, ${kind}, true, 'X'),
          (${ACME}, ${name}, ${at(1)}::timestamptz, 'change', true, 'Y')`);
    }
    const first = await timeline(ACME, name, `?limit=2&before=${at(3)}`);
    expect(first.body.data).toHaveLength(3);
    const second = await timeline(ACME, name, `?limit=2&before=${first.body.next_before}`);
    expect(second.body.data.map((e: { at: string }) => e.at)).toEqual([at(1), at(1), at(1)]);
  });

  it("answers 404 for another entity's device, and shows none of its events", async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    await seedWorld(ACME, name);
    const globexAdmin = await createAccount(s, root, { name: `g_${hex()}`, entity: GLOBEX, subtype: 'admin' });
    expect((await timeline(GLOBEX, name, '', globexAdmin.access_token)).status).toBe(404);
    expect((await timeline(ACME, name, '', globexAdmin.access_token)).status).toBe(404);
    // Rows filed under another entity with the device's name are not its events.
    await s.app.db.execute(sql`
      insert into device_telemetry (entity, device, at, kind, online) values (${GLOBEX}, ${name}, ${at(12)}::timestamptz, 'online', true)`);
    const own = await timeline(ACME, name, `?before=${at(13)}`);
    expect(own.body.data[0].at).toBe(at(10));
  });
});
