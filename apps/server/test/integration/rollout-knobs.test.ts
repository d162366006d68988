import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { SimulatedDevice } from '@fleet/simulator/device';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { connectDevice, eventually, registerDevice } from '../helpers/devices.ts';
import {
  ACME,
  act,
  api,
  devices,
  fleet,
  get,
  nameOf,
  prefix,
  rollout,
  s,
  sends,
  t,
  useRolloutWorld,
} from '../helpers/rollout-world.ts';
import { onlineSimulatedDevice } from '../helpers/simulated.ts';
import { upload } from '../helpers/uploads.ts';

// The engine's knobs (issue 28; docs/rollouts.md): soak, window, jitter, file sets, saved views.
useRolloutWorld({}, { shared: true });
const sims: SimulatedDevice[] = [];
afterAll(() => sims.forEach((d) => d.stop()));

const tick = (at: Date | number) => s.app.rollouts.engine.tick(new Date(at));
const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await s.app.db.execute(q));
const all = [0, 1, 2, 3, 4, 5, 6];

describe('rollout knobs', () => {
  it('soak: a device silent through the soak after its update counts as failed and pauses the rollout', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok', 'ok']);
    const id = await rollout(p, { canary: 0, percents: [100], soak_s: 60, error_threshold_pct: 0 });
    await act(id, 'start');
    await eventually(async () => expect((await get(id)).soak_until).not.toBeNull(), 15_000);
    const soaking = await get(id);
    expect(soaking).toMatchObject({ state: 'running', counts: { succeeded: 3 } });
    const until = new Date(soaking.soak_until).getTime();
    await tick(until - 1000);
    expect((await get(id)).state).toBe('running');
    // Two devices report during the soak (after its first 5 s, which the update's own reply may
    // still fall in); the third installed the image and went silent.
    const alive = devices.filter((d) => d.name.startsWith(p)).slice(0, 2);
    const heardAfter = new Date(until - 55_000).toISOString();
    await eventually(async () => {
      for (const d of alive) await d.publish('state', { battery: Math.floor(Math.random() * 100) });
      const heard = await rows<{ n: string }>(
        sql`select count(*) as n from devices where name like ${`${p}%`} and updated_at >= ${heardAfter}::timestamptz`,
      );
      expect(Number(heard[0]!.n)).toBe(2);
    }, 20_000);
    await tick(until + 1000);
    const r = await get(id);
    expect(r).toMatchObject({ state: 'paused', counts: { succeeded: 2, failed: 1 } });
    expect(r.pause_reason).toBe('Stage 100 %: 1 of 3 devices failed (33 %), over the error threshold of 0 %');
    const failed = await api('GET', `/${id}/devices?state=failed`);
    expect(failed.body.data).toEqual([
      expect.objectContaining({ device: nameOf(p, 2), error: 'No report during the soak of 60 s' }),
    ]);
  });

  it('soak: a simulated device reboot-looping on its new image (online 3 times within 300 s after its update) fails at once', async () => {
    const p = prefix();
    const status = { fwVersion: '1.0.0', state: 'WAITING' } as const;
    const ok = await onlineSimulatedDevice(s, ACME, t.admin, { status }, nameOf(p, 0));
    // Crashes 20 simulated seconds (0.2 s) after every boot, its Last Will published, and reboots.
    const looping = await onlineSimulatedDevice(s, ACME, t.admin, { status, loopImages: ['2.0.0'] }, nameOf(p, 1));
    sims.push(ok, looping);
    const id = await rollout(p, { canary: 0, percents: [100], soak_s: 3600, error_threshold_pct: 0 });
    await act(id, 'start');
    await eventually(async () => {
      await tick(Date.now());
      expect((await get(id)).state).toBe('paused');
    }, 25_000);
    const r = await get(id);
    expect(r).toMatchObject({ counts: { succeeded: 1, failed: 1 } });
    expect(new Date(r.soak_until).getTime()).toBeGreaterThan(Date.now() + 3_000_000);
    const failed = await api('GET', `/${id}/devices?state=failed`);
    expect(failed.body.data).toEqual([
      expect.objectContaining({
        device: nameOf(p, 1),
        error: 'Reboot loop: came online 3 times within 300 s after its update',
      }),
    ]);
    // It did install the image: its update succeeded before the loop failed it.
    expect((await sends(p)).map((x) => x.n)).toEqual(['1', '1']);
    expect(looping.stats.connects).toBeGreaterThanOrEqual(5);
  });

  it('window: nothing is sent outside it, in its time zone; inside it the devices are sent', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok']);
    const now = new Date();
    const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const window = { days: all, from: hh(now.getUTCHours() + 2), to: hh(now.getUTCHours() + 3), tz: 'UTC' };
    const id = await rollout(p, { canary: 0, percents: [100], window });
    expect((await get(id)).window).toEqual(window);
    await act(id, 'start');
    await tick(Date.now());
    await tick(Date.now());
    expect(await sends(p)).toEqual([]);
    expect((await get(id)).counts).toMatchObject({ waiting: 2, in_flight: 0 });
    const inside = new Date(now);
    inside.setUTCHours(now.getUTCHours() + 2, 30);
    await tick(inside);
    expect((await sends(p)).map((x) => x.n)).toEqual(['1', '1']);
    const bad = await api('POST', '', { name: 'w', firmware_id: 'x', target: { kind: 'entity' } });
    expect(bad.status).toBe(400);
    const badZone = await api('POST', '', {
      name: 'w',
      firmware_id: (await get(id)).firmware_id,
      target: { kind: 'entity' },
      window: { ...window, tz: 'Mars/Olympus' },
    });
    expect(badZone.status).toBe(400);
  });

  it('jitter: each device is sent at its own seeded delay within jitter_s, and only once', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    const id = await rollout(p, { canary: 0, percents: [100], jitter_s: 600 });
    await act(id, 'start');
    const at = Date.now();
    await tick(at);
    const claimed = await rows<{ device: string; send_at: string | Date }>(
      sql`select device, send_at from rollout_devices where rollout = ${id} and state = 'in_flight'`,
    );
    expect(claimed).toHaveLength(6);
    // The delay is the rollout's seed: md5(id, device, attempt) as a share of jitter_s.
    const share = (d: string) =>
      parseInt(createHash('md5').update(`${id}${d}1`).digest('hex').slice(0, 8), 16) / 2 ** 32;
    const offsets = claimed.map((c) => ({ device: c.device, at: new Date(c.send_at).getTime() }));
    const base = offsets[0]!.at - share(offsets[0]!.device) * 600_000;
    for (const o of offsets) expect(Math.abs(o.at - (base + share(o.device) * 600_000))).toBeLessThan(5);
    const spread = Math.max(...offsets.map((o) => o.at)) - Math.min(...offsets.map((o) => o.at));
    expect(spread).toBeGreaterThan(60_000);
    const due = offsets.filter((o) => o.at <= at).map((o) => o.device);
    expect((await sends(p)).map((x) => x.device).sort()).toEqual(due.sort());
    await tick(at + 300_000);
    const half = offsets.filter((o) => o.at <= at + 300_000).length;
    expect(await sends(p)).toHaveLength(half);
    await tick(at + 601_000);
    await tick(at + 602_000);
    const sent = await sends(p);
    expect(sent).toHaveLength(6);
    expect(sent.every((x) => x.n === '1')).toBe(true);
  });

  it('a file-set rollout provisions each device with its files and finishes on the sessions’ ends', async () => {
    const file = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, {
      fields: { level: 'entity', entity_id: ACME, file_device_path: 'config/rollout.json' },
      filename: 'rollout.json',
      bytes: 64,
    });
    expect(file.status).toBe(201);
    const p = prefix();
    for (const i of [0, 1]) sims.push(await onlineSimulatedDevice(s, ACME, t.admin, {}, nameOf(p, i)));
    const created = await api('POST', '', {
      name: `files ${p}`,
      delivery: 'files',
      target: { kind: 'filter', query: `search=${p}` },
      canary: 1,
      percents: [100],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ delivery: 'files', version: null, firmware_id: null });
    const id = created.body.data.id as string;
    await act(id, 'start');
    await eventually(async () => expect((await get(id)).state).toBe('finished'), 30_000);
    expect((await get(id)).counts).toMatchObject({ total: 2, succeeded: 2, failed: 0 });
    const sessions = await rows<{ device: string; status: string; n: string }>(
      sql`select device, status, count(*) over (partition by device) as n from provision_sessions
        where device like ${`${p}%`}`,
    );
    expect(sessions.map((x) => [x.status, x.n])).toEqual([
      ['provision_completed', '1'],
      ['provision_completed', '1'],
    ]);
    const withFw = await api('POST', '', {
      name: 'x',
      delivery: 'files',
      firmware_id: created.body.data.id,
      target: { kind: 'entity' },
    });
    expect(withFw.status).toBe(400);
  });

  it('a saved view as the target is resolved when the rollout starts: a device added to it later is untouched', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok']);
    const missing = await api('POST', '', {
      name: 'v',
      firmware_id: (await rows<{ id: string }>(sql`select id from firmware where entity = ${ACME} limit 1`))[0]!.id,
      target: { kind: 'view', name: `view ${p}` },
    });
    expect(missing.status).toBe(400);
    const view = await s.request('POST', `/api/v1/tenant/${ACME}/device-view`, {
      token: t.admin,
      body: { name: `view ${p}`, query: `search=${p}`, shared: true },
    });
    expect(view.status).toBe(201);
    const id = await rollout(p, {
      canary: 0,
      percents: [100],
      target: { kind: 'view', name: `view ${p}` },
      approval: false,
    });
    const dry = await api('POST', '/dry-run', {
      firmware_id: (await get(id)).firmware_id,
      target: { kind: 'view', name: `view ${p}` },
    });
    expect(dry.body.data).toMatchObject({ total: 2 });
    // Paused at once, so the later device is in the view before the rollout could finish.
    await act(id, 'start');
    await act(id, 'pause');
    const late = await connectDevice(s, ACME, await registerDevice(s, t.admin, ACME, nameOf(p, 2)));
    devices.push(late);
    const listed = await s.request('GET', `/api/v1/tenant/${ACME}/device?search=${p}`, { token: t.admin });
    expect(listed.body.total ?? listed.body.data.length).toBe(3);
    await act(id, 'resume');
    await eventually(async () => expect((await get(id)).state).toBe('finished'), 15_000);
    expect((await get(id)).counts).toMatchObject({ total: 2, succeeded: 2 });
    expect((await sends(p)).map((x) => x.device).sort()).toEqual([nameOf(p, 0), nameOf(p, 1)]);
  });
});
