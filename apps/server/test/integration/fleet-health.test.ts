import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldFleetCounts } from '../../src/domain/fleet-health/fleet-now.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';
import { randomDeviceId as hex, registerDevice, startWithTwoEntities } from '../helpers/devices.ts';

// Issue 27: the fleet health screen's figures, each equal to the device list's total for its link.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
const MIN = 60_000;
const HOUR = 60 * MIN;
const now = Date.now();
const ago = (ms: number) => new Date(now - ms).toISOString();
const hourStart = Math.floor(now / HOUR) * HOUR;

interface Fixture {
  type?: 'CC1' | 'CC2';
  battery: number | null;
  charging?: boolean;
  state: string | null;
  fw: string | null;
  online?: boolean;
  /** How long ago its last sign of life was; absent: never seen (its registration). */
  seenAgo?: number;
}

/** Registers the devices, then gives each the hand-counted state (10 days old, so every bucket knows it). */
async function fleet(entity: string, fixtures: Fixture[]) {
  const names: string[] = [];
  for (const f of fixtures) {
    const name = hex();
    await registerDevice(s, root, entity, name);
    await s.app.db.execute(sql`
      update devices set manufacturing_type = ${f.type ?? 'CC1'}, battery = ${f.battery}, is_charging = ${f.charging ?? false},
        state_current = ${f.state}, fw_version = ${f.fw}, online = ${f.online ?? false},
        created_at = ${ago(10 * 24 * HOUR)}::timestamptz,
        updated_at = ${f.seenAgo === undefined ? ago(10 * 24 * HOUR) : ago(f.seenAgo)}::timestamptz
      where name = ${name}`);
    names.push(name);
  }
  return names;
}

let acme: string[] = [];
let globex: string[] = [];

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities());
  acme = await fleet(ACME, [
    { battery: 90, state: 'ALLOCATED', fw: '1.0.0', online: true, seenAgo: MIN },
    { battery: 60, charging: true, state: 'WAITING', fw: '1.0.0', seenAgo: 30 * MIN },
    { type: 'CC2', battery: 30, charging: true, state: 'ERROR', fw: '2.0.0', seenAgo: 2 * HOUR },
    { type: 'CC2', battery: 10, state: 'ERROR', fw: '1.0.0', online: true, seenAgo: 5 * MIN },
    { battery: null, state: null, fw: null },
  ]);
  globex = await fleet(GLOBEX, [
    { battery: 20, charging: true, state: 'ERROR', fw: '1.0.0', online: true, seenAgo: MIN },
    { battery: 20, state: 'ERROR', fw: '1.0.0', seenAgo: HOUR },
    { battery: 95, state: 'DFU', fw: '3.0.0' },
  ]);
});
afterAll(async () => s?.close());

const health = async (path: string, token = root) => {
  const res = await s.request('GET', `/api/v1/${path}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const listTotal = async (entity: string, query: string) => {
  const res = await s.request('GET', `/api/v1/tenant/${entity}/device?limit=1&${query}`, { token: root });
  expect(res.status, res.text).toBe(200);
  return res.body.total as number;
};
const count = (rows: Array<Record<string, unknown> & { count: number }>, match: Record<string, unknown>) =>
  rows.find((r) => Object.entries(match).every(([k, v]) => r[k] === v))?.count ?? 0;

describe("an entity's fleet health now", () => {
  it('counts presence, battery bands, states and firmware per type by hand, and nothing of another entity', async () => {
    const h = await health(`tenant/${ACME}/fleet-health`);
    expect(h.devices).toEqual({ total: 5, online: 2, unresponsive: 3, never_seen: 1 });
    expect(h.battery).toEqual([
      { band: 'High', count: 1 },
      { band: 'Medium', count: 1 },
      { band: 'Low', count: 2 },
      { band: 'Charging', count: 2 },
    ]);
    expect(h.states).toEqual([
      { state: 'ERROR', count: 2 },
      { state: 'ALLOCATED', count: 1 },
      { state: 'WAITING', count: 1 },
      { state: null, count: 1 },
    ]);
    expect(h.firmware).toEqual([
      { type: 'CC1', version: '1.0.0', count: 2 },
      { type: 'CC1', version: null, count: 1 },
      { type: 'CC2', version: '1.0.0', count: 1 },
      { type: 'CC2', version: '2.0.0', count: 1 },
    ]);
  });

  it("equals the device list's total for every link it offers (battery, status, firmware and type, seen)", async () => {
    const h = await health(`tenant/${ACME}/fleet-health`);
    for (const { band, count: n } of h.battery)
      expect([band, await listTotal(ACME, `battery=${band}`)]).toEqual([band, n]);
    for (const { state, count: n } of h.states.filter((r: { state: string | null }) => r.state !== null))
      expect([state, await listTotal(ACME, `status=${state}`)]).toEqual([state, n]);
    for (const { type, version, count: n } of h.firmware.filter((r: { version: string | null }) => r.version !== null))
      expect([type, version, await listTotal(ACME, `fw_version=${version}&type=${type}`)]).toEqual([type, version, n]);
    const seen = { online: 'online', unresponsive: 'unresponsive', never_seen: 'never' } as const;
    for (const [key, value] of Object.entries(seen))
      expect([key, await listTotal(ACME, `seen=${value}`)]).toEqual([key, h.devices[key]]);
    expect(await listTotal(ACME, '')).toBe(h.devices.total);
  });

  it('is read by every account that reads devices (an operator too), and refused for another entity', async () => {
    const { access_token: operator } = await createAccount(s, root, {
      name: `op_${hex()}`,
      entity: ACME,
      subtype: 'operator',
    });
    expect((await health(`tenant/${ACME}/fleet-health`, operator)).devices.total).toBe(5);
    const other = await s.request('GET', `/api/v1/tenant/${GLOBEX}/fleet-health`, { token: operator });
    expect([403, 404]).toContain(other.status);
    const landlordPath = await s.request('GET', '/api/v1/fleet-health', { token: operator });
    expect(landlordPath.status).toBe(403);
  });

  it('answers 400 for a window it does not know', async () => {
    const res = await s.request('GET', `/api/v1/tenant/${ACME}/fleet-health?window=2h`, { token: root });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.details).toBeDefined();
  });
});

describe("the superadmin's fleet health", () => {
  it('counts every entity, or the one its filter names', async () => {
    const all = await health('fleet-health');
    expect(all.devices).toEqual({ total: 8, online: 3, unresponsive: 5, never_seen: 2 });
    expect(count(all.states, { state: 'ERROR' })).toBe(4);
    const one = await health(`fleet-health?entity=${GLOBEX}`);
    expect(one.devices).toEqual({ total: 3, online: 1, unresponsive: 2, never_seen: 1 });
    expect(one.battery.map((b: { count: number }) => b.count)).toEqual([1, 0, 2, 1]);
  });
});

describe('the history of a window', () => {
  beforeAll(async () => {
    const h1 = new Date(hourStart - 3 * HOUR).toISOString();
    const h2 = new Date(hourStart - 2 * HOUR).toISOString();
    const rows: Array<[string, string, string, number, number]> = [
      [ACME, acme[0]!, h1, 5, 3600],
      [ACME, acme[1]!, h1, 2, 0],
      [ACME, acme[0]!, h2, 0, 100],
      [GLOBEX, globex[0]!, h1, 9, 3600],
      [GLOBEX, globex[1]!, h1, 9, 3600],
    ];
    for (const [entity, device, hour, points, online] of rows)
      await s.app.db.execute(sql`
        insert into device_telemetry_hourly (entity, device, hour, points, charging_s, online_s, state_s)
        values (${entity}, ${device}, ${hour}::timestamptz, ${points}, 0, ${online}, '{}'::jsonb)`);
    const commands: Array<[string, string, string, string, number, string | null]> = [
      [ACME, acme[0]!, 'refresh', 'succeeded', HOUR, null],
      [ACME, acme[1]!, 'refresh', 'timed_out', HOUR, null],
      [ACME, acme[0]!, 'reboot', 'succeeded', 2 * HOUR, null],
      [ACME, acme[2]!, 'dfu', 'succeeded', 3 * HOUR, '2.0.0'],
      [ACME, acme[3]!, 'dfu', 'failed', 3 * HOUR, '2.0.0'],
      [ACME, acme[0]!, 'refresh', 'succeeded', 3 * 24 * HOUR, null],
      [GLOBEX, globex[0]!, 'dfu', 'succeeded', HOUR, '1.0.0'],
      [GLOBEX, globex[0]!, 'refresh', 'failed', HOUR, null],
    ];
    for (const [entity, device, type, state, age, version] of commands)
      await s.app.db.execute(sql`
        insert into commands (id, device, entity, type, payload, target, state, sent_by, created_at, replied_at, expires_at)
        values (${randomUUID()}, ${device}, ${entity}, ${type}, ${JSON.stringify(version ? { version } : {})}::jsonb, 'device',
          ${state}, 'admin', ${ago(age)}::timestamptz, ${ago(age - MIN)}::timestamptz, ${ago(age - HOUR)}::timestamptz)`);
    const sessions: Array<[string, string, string, number]> = [
      [ACME, acme[0]!, 'provision_completed', HOUR],
      [ACME, acme[1]!, 'provision_failed', 2 * HOUR],
      [ACME, acme[2]!, 'provision_completed', 40 * 24 * HOUR],
      [GLOBEX, globex[0]!, 'timeout', HOUR],
    ];
    for (const [entity, device, status, age] of sessions)
      await s.app.db.execute(sql`
        insert into provision_sessions (id, entity, device, status, started_by, created_at, heard_at, ended_at)
        values (${randomUUID()}, ${entity}, ${device}, ${status}, 'admin', ${ago(age)}::timestamptz,
          ${ago(age)}::timestamptz, ${ago(age)}::timestamptz)`);
  });

  it('per hour over 24 h: devices online and devices silent, from the roll-up of the entity only', async () => {
    const h = await health(`tenant/${ACME}/fleet-health?window=24h`);
    expect(h.presence.bucket_s).toBe(3600);
    expect(h.presence.points).toEqual([
      { at: new Date(hourStart - 3 * HOUR).toISOString(), online: 1, silent: 3 },
      { at: new Date(hourStart - 2 * HOUR).toISOString(), online: 1, silent: 4 },
    ]);
  });

  it('commands, firmware updates and provisioning sessions of the window by outcome, and adoption per version', async () => {
    const day = await health(`tenant/${ACME}/fleet-health?window=24h`);
    expect(day.outcomes.commands).toEqual([
      { outcome: 'succeeded', count: 2 },
      { outcome: 'timed_out', count: 1 },
    ]);
    expect(day.outcomes.firmware_updates).toEqual([
      { outcome: 'failed', count: 1 },
      { outcome: 'succeeded', count: 1 },
    ]);
    expect(day.outcomes.provisioning).toEqual([
      { outcome: 'provision_completed', count: 1 },
      { outcome: 'provision_failed', count: 1 },
    ]);
    expect(day.adoption).toHaveLength(1);
    expect(day.adoption[0]).toMatchObject({ version: '2.0.0', count: 1 });
    const month = await health(`tenant/${ACME}/fleet-health?window=30d`);
    expect(count(month.outcomes.commands, { outcome: 'succeeded' })).toBe(3);
    // Both hours in one UTC day: two devices heard in it; around midnight, one bucket each.
    const dayOf = (t: number) => new Date(Math.floor(t / (24 * HOUR)) * 24 * HOUR).toISOString();
    const [d1, d2] = [dayOf(hourStart - 3 * HOUR), dayOf(hourStart - 2 * HOUR)];
    expect(month.presence.points).toEqual(
      d1 === d2
        ? [{ at: d1, online: 1, silent: 3 }]
        : [
            { at: d1, online: 1, silent: 3 },
            { at: d2, online: 1, silent: 4 },
          ],
    );
  });
});

describe('the counts kept as devices change (migration 0028)', () => {
  it('follow one statement moving several devices, a band alone moving, a deletion, and a fold', async () => {
    const extra = await fleet(GLOBEX, [
      { battery: 80, state: 'DFU', fw: '3.0.0', online: true, seenAgo: MIN },
      { battery: 40, charging: true, state: 'ERROR', fw: '1.0.0', seenAgo: HOUR },
    ]);
    await s.app.db.execute(sql`
      update devices set battery = least(battery, 55), state_current = 'WAITING', online = false
      where name in (${extra[0]}, ${extra[1]})`);
    // Only a battery band moves (Low to Medium), nothing else counted.
    await s.app.db.execute(sql`update devices set battery = 55 where name = ${extra[1]}`);
    await s.app.db.execute(sql`delete from devices where name = ${extra[0]}`);
    const figures = (h: Record<string, unknown>) => [h.devices, h.battery, h.states, h.firmware];
    const before = await health(`tenant/${GLOBEX}/fleet-health`);
    expect(before.devices).toEqual({ total: 4, online: 1, unresponsive: 3, never_seen: 1 });
    expect(before.battery.map((b: { count: number }) => b.count)).toEqual([1, 1, 2, 2]);
    expect(before.states).toEqual([
      { state: 'ERROR', count: 2 },
      { state: 'DFU', count: 1 },
      { state: 'WAITING', count: 1 },
    ]);
    expect(count(before.firmware, { type: 'CC1', version: '1.0.0' })).toBe(3);
    expect(await listTotal(GLOBEX, 'battery=Medium')).toBe(1);
    expect(await listTotal(GLOBEX, 'status=WAITING')).toBe(1);
    await foldFleetCounts(s.app.db);
    const rows = await s.app.db.execute(sql`select count(*)::int as n from fleet_counts where entity = ${GLOBEX}`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeLessThanOrEqual(12);
    expect(figures(await health(`tenant/${GLOBEX}/fleet-health`))).toEqual(figures(before));
    await s.app.db.execute(sql`delete from devices where name = ${extra[1]}`);
  });
});
