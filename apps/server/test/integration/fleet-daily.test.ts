import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { sweepFleetDaily } from '../../src/domain/fleet-health/fleet-daily-sweep.ts';
import type { TestServer } from '../helpers/server.ts';
import { randomDeviceId as hex, registerDevice, startWithTwoEntities } from '../helpers/devices.ts';

// Issue 27: the daily fleet snapshot, one row per entity per day, and the 7 d / 30 d trends read from it.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date();
const today = Math.floor(now.getTime() / DAY) * DAY;
const ymd = (t: number) => new Date(t).toISOString().slice(0, 10);
const [D2, D1] = [today - 2 * DAY, today - DAY];
const iso = (t: number) => new Date(t).toISOString();
let acme: string[] = [];
let globex: string[] = [];

async function devicesOf(entity: string, n: number) {
  const names: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const name = hex();
    await registerDevice(s, root, entity, name);
    await s.app.db.execute(sql`
      update devices set created_at = ${iso(today - 10 * DAY)}::timestamptz, updated_at = ${iso(today - 10 * DAY)}::timestamptz
      where name = ${name}`);
    names.push(name);
  }
  return names;
}
const hourly = (entity: string, device: string, hour: number, points: number, onlineS: number) =>
  s.app.db.execute(sql`
    insert into device_telemetry_hourly (entity, device, hour, points, charging_s, online_s, state_s)
    values (${entity}, ${device}, ${iso(hour)}::timestamptz, ${points}, 0, ${onlineS}, '{}'::jsonb)`);
const command = (entity: string, device: string, type: string, state: string, at: number, version?: string) =>
  s.app.db.execute(sql`
    insert into commands (id, device, entity, type, payload, target, state, sent_by, created_at, replied_at, expires_at)
    values (${randomUUID()}, ${device}, ${entity}, ${type}, ${JSON.stringify(version ? { version } : {})}::jsonb, 'device',
      ${state}, 'admin', ${iso(at)}::timestamptz, ${iso(at + 60_000)}::timestamptz, ${iso(at + HOUR)}::timestamptz)`);
const snapshot = async (entity: string, day: number) => {
  const [row] = rowsOf<Record<string, unknown>>(
    await s.app.db.execute(sql`select * from fleet_daily where entity = ${entity} and day = ${ymd(day)}::date`),
  );
  return row;
};
const sorted = (v: unknown) =>
  [...(v as Array<{ outcome: string }>)].sort((a, b) => a.outcome.localeCompare(b.outcome));
const health = async (path: string) => {
  const res = await s.request('GET', `/api/v1/${path}`, { token: root });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities());
  acme = await devicesOf(ACME, 3);
  globex = await devicesOf(GLOBEX, 1);
  // Two days ago: two ACME devices online, a third heard without being online; two commands and a firmware update.
  await hourly(ACME, acme[0]!, D2 + 9 * HOUR, 4, 3600);
  await hourly(ACME, acme[0]!, D2 + 10 * HOUR, 2, 1800);
  await hourly(ACME, acme[1]!, D2 + 9 * HOUR, 1, 600);
  await hourly(ACME, acme[2]!, D2 + 11 * HOUR, 3, 0);
  await command(ACME, acme[0]!, 'refresh', 'succeeded', D2 + 9 * HOUR);
  await command(ACME, acme[1]!, 'refresh', 'failed', D2 + 9 * HOUR);
  await command(ACME, acme[2]!, 'dfu', 'succeeded', D2 + 10 * HOUR, '2.0.0');
  // Yesterday: one device online, one command still waiting for its answer, one provisioning session.
  await hourly(ACME, acme[0]!, D1 + 8 * HOUR, 1, 3600);
  await command(ACME, acme[0]!, 'reboot', 'sent', D1 + 23 * HOUR);
  await s.app.db.execute(sql`
    insert into provision_sessions (id, entity, device, status, started_by, created_at, heard_at, ended_at)
    values (${randomUUID()}, ${ACME}, ${acme[1]!}, 'provision_completed', 'admin', ${iso(D1 + HOUR)}::timestamptz,
      ${iso(D1 + HOUR)}::timestamptz, ${iso(D1 + 2 * HOUR)}::timestamptz)`);
  // GLOBEX, two days ago: its own device and command, never in ACME's figures.
  await hourly(GLOBEX, globex[0]!, D2 + 9 * HOUR, 5, 3600);
  await command(GLOBEX, globex[0]!, 'refresh', 'succeeded', D2 + 12 * HOUR);
  // What the server's first sweep wrote before these rows existed is taken again.
  await s.app.db.execute(sql`delete from fleet_daily`);
});
afterAll(async () => s?.close());

describe('the daily fleet snapshot sweep', () => {
  it('writes one row per entity for each of the last 30 days, counted by hand, and nothing twice', async () => {
    expect(await sweepFleetDaily(s.app.db, 400, now)).toBe(30);
    const d2 = await snapshot(ACME, D2);
    expect(d2).toMatchObject({ existed: 3, online_day: 2, heard_day: 3, total: null });
    expect(sorted(d2?.commands)).toEqual([
      { outcome: 'failed', count: 1 },
      { outcome: 'succeeded', count: 1 },
    ]);
    expect(d2?.firmware_updates).toEqual([{ outcome: 'succeeded', count: 1 }]);
    expect(d2?.adoption).toEqual([{ version: '2.0.0', count: 1 }]);
    expect(d2?.provisioning).toEqual([]);
    // Yesterday's row also keeps the state of the fleet as the sweep read it.
    const d1 = await snapshot(ACME, D1);
    expect(d1).toMatchObject({ existed: 3, online_day: 1, heard_day: 1, total: 3, online: 0, never_seen: 3 });
    expect(d1?.commands).toEqual([{ outcome: 'sent', count: 1 }]);
    expect(d1?.provisioning).toEqual([{ outcome: 'provision_completed', count: 1 }]);
    expect(await snapshot(GLOBEX, D2)).toMatchObject({ existed: 1, online_day: 1, heard_day: 1 });
    expect(await snapshot(GLOBEX, D2)).toMatchObject({ commands: [{ outcome: 'succeeded', count: 1 }] });
    expect(await snapshot(ACME, today)).toBeUndefined();

    expect(await sweepFleetDaily(s.app.db, 400, now)).toBe(0);
    const [{ n } = { n: 0 }] = rowsOf<{ n: number }>(
      await s.app.db.execute(sql`select count(*)::int as n from fleet_daily where entity in (${ACME}, ${GLOBEX})`),
    );
    expect(n).toBe(60);
  });

  it("writes a settling day's outcomes again, and keeps its state of the fleet", async () => {
    await s.app.db.execute(sql`update commands set state = 'succeeded' where entity = ${ACME} and type = 'reboot'`);
    await sweepFleetDaily(s.app.db, 400, now);
    expect(await snapshot(ACME, D1)).toMatchObject({ commands: [{ outcome: 'succeeded', count: 1 }], total: 3 });
  });
});

describe('the 7 d and 30 d trends', () => {
  it('read the past days from the snapshot (not the source tables) and today live', async () => {
    // Gone from the source tables: the snapshot still counts them.
    await s.app.db.execute(sql`delete from commands where entity = ${ACME} and created_at < ${iso(D1)}::timestamptz`);
    await command(ACME, acme[1]!, 'refresh', 'failed', Math.max(today, now.getTime() - HOUR));
    const month = await health(`tenant/${ACME}/fleet-health?window=30d`);
    expect(month.outcomes.commands).toEqual([
      { outcome: 'failed', count: 2 },
      { outcome: 'succeeded', count: 2 },
    ]);
    expect(month.outcomes.firmware_updates).toEqual([{ outcome: 'succeeded', count: 1 }]);
    expect(month.outcomes.provisioning).toEqual([{ outcome: 'provision_completed', count: 1 }]);
    expect(month.adoption).toEqual([{ at: `${ymd(D2)}T00:00:00.000Z`, version: '2.0.0', count: 1 }]);
    expect(month.presence).toEqual({
      bucket_s: 86_400,
      points: [
        { at: `${ymd(D2)}T00:00:00.000Z`, online: 2, silent: 0 },
        { at: `${ymd(D1)}T00:00:00.000Z`, online: 1, silent: 2 },
      ],
    });
    const week = await health(`tenant/${ACME}/fleet-health?window=7d`);
    expect(week.presence.points).toEqual(month.presence.points);
  });

  it("sum every entity's rows for the superadmin, or the one its filter names", async () => {
    const all = await health('fleet-health?window=30d');
    expect(all.presence.points[0]).toEqual({ at: `${ymd(D2)}T00:00:00.000Z`, online: 3, silent: 0 });
    expect(all.outcomes.commands).toContainEqual({ outcome: 'succeeded', count: 3 });
    const one = await health(`fleet-health?window=30d&entity=${GLOBEX}`);
    expect(one.outcomes.commands).toEqual([{ outcome: 'succeeded', count: 1 }]);
    expect(one.presence.points).toEqual([{ at: `${ymd(D2)}T00:00:00.000Z`, online: 1, silent: 0 }]);
  });

  it("go with their entity: a deleted entity's days are gone, another's stay", async () => {
    await s.app.db.execute(sql`delete from entities where name = ${GLOBEX}`);
    expect(await snapshot(GLOBEX, D2)).toBeUndefined();
    expect(await snapshot(ACME, D2)).toMatchObject({ existed: 3 });
  });

  it('remove rows past retention', async () => {
    await sweepFleetDaily(s.app.db, 2, now);
    expect(await snapshot(ACME, D2)).toMatchObject({ existed: 3 });
    expect(await snapshot(ACME, today - 3 * DAY)).toBeUndefined();
  });
});
