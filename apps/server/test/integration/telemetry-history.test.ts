import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@fleet/shared/protocol';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { sweepTelemetry } from '../../src/domain/telemetry/telemetry-sweep.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';
import { onlineSimulatedDevice } from '../helpers/simulated.ts';
import {
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
} from '../helpers/devices.ts';

// Issue 26: every report, connect and disconnect of a device is kept, read back by time range.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities());
});
afterAll(async () => s?.close());

const DAY = 86_400_000;
const telemetry = (entity: string, name: string, query = '', token = root) =>
  s.request('GET', `/api/v1/tenant/${entity}/device/${name}/telemetry${query}`, { token });
const rawPoints = async (entity: string, name: string) => {
  const res = await telemetry(entity, name);
  expect(res.status).toBe(200);
  expect(res.body.data.resolution).toBe('raw');
  return res.body.data.points as Array<{ kind: string } & Record<string, any>>;
};
const kinds = (points: Array<{ kind: string }>) => points.map((p) => p.kind);

/** Writes raw points for a device straight into the history (what months of reports would leave). */
async function seed(entity: string, device: string, points: Array<{ at: number; battery: number; state?: string }>) {
  for (const p of points) {
    await s.app.db.execute(sql`
      insert into device_telemetry (entity, device, at, kind, online, state, battery, is_charging)
      values (${entity}, ${device}, ${new Date(p.at).toISOString()}::timestamptz, 'report', true,
        ${p.state ?? 'WAITING'}, ${p.battery}, false)`);
  }
}

describe('history written by a device', () => {
  it("keeps each report with the device's clock and the receive time, and one online point per connect", async () => {
    const creds = await registerDevice(s, root, ACME, hex());
    const d = await connectDevice(s, ACME, creds);
    const ts = Date.parse('2026-01-02T03:04:05.000Z');
    await d.publish('state', { state: 'WAITING', battery: 80, fw_version: '1.0.0', ts });
    await d.publish('state', { battery: 79 });
    await d.publish('state', { state: 'ALLOCATED' });
    await eventually(async () => expect((await rawPoints(ACME, d.name)).length).toBe(4));
    const points = await rawPoints(ACME, d.name);
    expect(kinds(points)).toEqual(['online', 'change', 'report', 'change']);
    expect(points[1]).toMatchObject({ device_at: new Date(ts).toISOString(), state: 'WAITING', battery: 80 });
    // A report carries the whole state: what it did not say is what the device said before.
    expect(points[2]).toMatchObject({ device_at: null, state: 'WAITING', battery: 79, fw_version: '1.0.0' });
    expect(points[3]).toMatchObject({ state: 'ALLOCATED', battery: 79, online: true });
    expect(Date.parse(points[1]!.at)).toBeGreaterThan(Date.now() - 60_000);
    await d.client.endAsync();
  });

  it('reads back in the order they came reports of one millisecond written by different flushes', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const t = s.app.devices.telemetry;
    const at = new Date();
    t.report(name, { state: 'WAITING', battery: 80 }, at);
    await t.flush();
    t.report(name, { battery: 79 }, at);
    await t.flush();
    t.report(name, { state: 'ALLOCATED' }, at);
    await t.flush();
    const points = await rawPoints(ACME, name);
    expect(points.map((p) => [p.kind, p.state, p.battery])).toEqual([
      ['online', null, null],
      ['change', 'WAITING', 80],
      ['report', 'WAITING', 79],
      ['change', 'ALLOCATED', 79],
    ]);
    // No two share a stored time, so no database may read them back in another order.
    const [times] = rowsOf<{ n: number }>(
      await s.app.db.execute(sql`select count(distinct at)::int as n from device_telemetry where device = ${name}`),
    );
    expect(times!.n).toBe(4);
  });

  it('records a goodbye and a Last Will as one disconnect each, and the reconnects between them', async () => {
    const creds = await registerDevice(s, root, ACME, hex());
    const d = await connectDevice(s, ACME, creds);
    await d.publish('state', { online: false });
    await d.client.endAsync();
    // Back, then gone without a word: the broker publishes its Last Will.
    const willing = await mqtt.connectAsync(s.mqttUrl, {
      protocolVersion: 4,
      clientId: creds.username,
      username: creds.username,
      password: creds.password,
      reconnectPeriod: 0,
      will: {
        topic: topics.state(ACME, creds.username),
        payload: Buffer.from('{"online":false}'),
        qos: 1,
        retain: false,
      },
    });
    await willing.subscribeAsync(topics.deviceCommands(ACME, creds.username), { qos: 1 });
    await willing.publishAsync(topics.state(ACME, creds.username), JSON.stringify({ battery: 40 }), { qos: 1 });
    await eventually(async () => expect(kinds(await rawPoints(ACME, d.name))).toContain('report'));
    willing.end(true);
    await eventually(async () =>
      expect(kinds(await rawPoints(ACME, d.name))).toEqual(['online', 'offline', 'online', 'report', 'offline']),
    );
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.name}`, { token: root });
    expect(dev.body.data.online).toBe(false);
  });

  it('writes a presence point only when it changes the row, flush after flush', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const batcher = s.app.devices.telemetry;
    for (const step of [
      () => batcher.report(name, { battery: 50 }),
      () => batcher.report(name, { battery: 49 }),
      () => batcher.presence(name, false),
      () => batcher.report(name, { online: false }),
    ]) {
      step();
      await batcher.flush();
    }
    expect(kinds(await rawPoints(ACME, name))).toEqual(['online', 'report', 'report', 'offline']);
  });

  it('follows a simulated device through its reports and a dropped link', async () => {
    const sim = await onlineSimulatedDevice(s, ACME, root, {});
    try {
      await eventually(async () => expect(kinds(await rawPoints(ACME, sim.id))).toContain('change'));
      sim.drop();
      await eventually(async () => expect(kinds(await rawPoints(ACME, sim.id))).toContain('offline'));
      await eventually(async () => expect(kinds(await rawPoints(ACME, sim.id)).slice(1)).toContain('online'), 15_000);
      const points = await rawPoints(ACME, sim.id);
      expect(points.find((p) => p.kind === 'change')).toMatchObject({ online: true, device_at: expect.any(String) });
      const presence = kinds(points).filter((k) => k === 'online' || k === 'offline');
      // Alternating: the Last Will and the broker's own disconnect are one offline point, not two.
      expect(presence.every((k, i) => i === 0 || k !== presence[i - 1])).toBe(true);
    } finally {
      await sim.stop();
    }
  }, 30_000);
});

describe('the telemetry answer', () => {
  it('is raw points over a short range and hourly buckets over a long one', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const now = Date.now();
    const start = Math.floor(now / 3_600_000) * 3_600_000 - 10 * DAY;
    const points = Array.from({ length: 10 * 24 * 4 }, (_, i) => ({
      at: start + i * 15 * 60_000,
      battery: 100 - (i % 96),
    }));
    await seed(ACME, name, points);
    const lastDay = await telemetry(
      ACME,
      name,
      `?from=${new Date(now - DAY).toISOString()}&to=${new Date(now).toISOString()}`,
    );
    expect(lastDay.body.data).toMatchObject({ resolution: 'raw', bucket_s: null, buckets: [] });
    expect(lastDay.body.data.points.length).toBeGreaterThanOrEqual(90);

    const from = new Date(start).toISOString();
    const to = new Date(start + 10 * DAY).toISOString();
    const tenDays = await telemetry(ACME, name, `?from=${from}&to=${to}`);
    expect(tenDays.body.data).toMatchObject({ resolution: 'hourly', bucket_s: 3600, points: [] });
    expect(tenDays.body.data.buckets).toHaveLength(240);
    expect(tenDays.body.data.buckets[0]).toMatchObject({ at: from, points: 4, battery_min: 97, battery_max: 100 });
    expect(tenDays.body.data.buckets[0].battery_mean).toBeCloseTo(98.5);
    expect(tenDays.body.data.buckets[0].online_s).toBe(3600);
    expect(tenDays.body.data.buckets[0].state_s).toEqual({ WAITING: 3600 });

    // Rolled up by the sweep, the same range answers the same from the hourly table.
    // Swept as of a few minutes past the last hour, so the sweep's grace minute never holds it back.
    await sweepTelemetry(s.app.db, { rawDays: 30, hourlyDays: 400 }, new Date(start + 10 * DAY + 5 * 60_000));
    const rolled = await telemetry(ACME, name, `?from=${from}&to=${to}`);
    expect(rolled.body.data.buckets).toEqual(tenDays.body.data.buckets);
    const [stored] = rowsOf<{ n: number }>(
      await s.app.db.execute(sql`select count(*)::int as n from device_telemetry_hourly where device = ${name}`),
    );
    expect(stored!.n).toBe(240);

    // A year is at most a few thousand buckets.
    const year = await telemetry(ACME, name, `?from=${new Date(now - 365 * DAY).toISOString()}`);
    expect(year.body.data.bucket_s).toBe(7200);
    expect(year.body.data.buckets.length).toBeLessThanOrEqual(5000);
  });

  it("answers 404 for another entity's device, to its admin and on its own entity's path", async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const globexAdmin = await createAccount(s, root, { name: `g_${hex()}`, entity: GLOBEX, subtype: 'admin' });
    expect((await telemetry(ACME, name, '', globexAdmin.access_token)).status).toBe(404);
    expect((await telemetry(GLOBEX, name, '', globexAdmin.access_token)).status).toBe(404);
    expect((await telemetry(GLOBEX, name)).status).toBe(404);
    const landlord = await s.request('GET', `/api/v1/device/${name}/telemetry`, { token: root });
    expect(landlord.status).toBe(200);
  });
});

describe('retention', () => {
  it('drops whole days of raw points past TELEMETRY_RAW_DAYS and old hourly rows, keeping the rest', async () => {
    const name = hex();
    await registerDevice(s, root, ACME, name);
    const now = Date.now();
    // Nothing rolled up yet (as before a backfill), and the partitions of forty days ago, as the sweep made them then.
    await s.app.db.execute(sql`delete from telemetry_rollup`);
    await sweepTelemetry(s.app.db, { rawDays: 30, hourlyDays: 400 }, new Date(now - 40 * DAY));
    await seed(ACME, name, [
      { at: now - 40 * DAY, battery: 10 },
      { at: now - 31 * DAY, battery: 11 },
      { at: now - 10 * DAY, battery: 20 },
    ]);
    await s.app.db.execute(sql`
      insert into device_telemetry_hourly (entity, device, hour, points, charging_s, online_s, state_s)
      values (${ACME}, ${name}, ${new Date(now - 450 * DAY).toISOString()}::timestamptz, 1, 0, 0, '{}'),
        (${ACME}, ${name}, ${new Date(now - 300 * DAY).toISOString()}::timestamptz, 1, 0, 0, '{}')`);
    await sweepTelemetry(s.app.db, { rawDays: 30, hourlyDays: 400 });
    const raw = rowsOf<{ battery: number }>(
      await s.app.db.execute(sql`select battery from device_telemetry where device = ${name} order by at`),
    );
    expect(raw.map((r) => r.battery)).toEqual([20]);
    const hourly = rowsOf<{ hour: string; battery_min: number | null }>(
      await s.app.db.execute(
        sql`select hour, battery_min from device_telemetry_hourly where device = ${name} order by hour`,
      ),
    );
    // The 300-day row stays, the 450-day one is gone; the dropped raw points live on as hourly rows.
    expect(hourly.filter((h) => Date.parse(h.hour) < now - 100 * DAY)).toHaveLength(1);
    expect(hourly.flatMap((h) => (h.battery_min === null ? [] : [h.battery_min]))).toEqual([10, 11, 20]);
    const day40 = new Date(now - 40 * DAY).toISOString().slice(0, 10).replaceAll('-', '');
    const [table] = rowsOf<{ gone: boolean }>(
      await s.app.db.execute(sql`select to_regclass(${`device_telemetry_p${day40}`}) is null as gone`),
    );
    expect(table!.gone).toBe(true);
  });
});
