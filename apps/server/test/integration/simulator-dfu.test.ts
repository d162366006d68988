import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedDevice } from '@fleet/simulator/device';
import { DFU_ERRORS, type DfuFault } from '@fleet/simulator/dfu';
import { rowsOf } from '../../src/db/raw-sql.ts';
import type { TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/devices.ts';
import { onlineSimulatedDevice } from '../helpers/simulated.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

let s: TestServer;
let ACME = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const devices: SimulatedDevice[] = [];
let fw = '';

beforeAll(async () => {
  ({ s, acme: ACME, tokens: t } = await startForUploads({}, { shared: true }));
  const up = await upload(s, `/api/v1/tenant/${ACME}/firmware`, t.admin, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: ACME, version: '5.0.0', device_type: 'CC1', description: '' },
    bytes: randomBytes(400_000),
  });
  fw = up.body.data.id;
});
afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await s?.close();
});

/** A simulated device of the entity, online, that never sleeps; reboots take 50 ms. */
async function simulated(dfuFault: DfuFault) {
  const d = await onlineSimulatedDevice(s, ACME, t.admin, {
    dfuFault,
    status: { fwVersion: '4.0.0', state: 'WAITING' },
  });
  devices.push(d);
  return d;
}
const latest = async (name: string) =>
  (await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}/commands`, { token: t.admin })).body.data[0];

describe('the simulator updates its firmware for real', () => {
  it.each(['none', 'flaky-link'] as const)(
    'downloads, verifies, reboots and reports the new version (%s)',
    async (fault) => {
      const d = await simulated(fault);
      const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/dfu/${d.id}`, { token: t.operator, body: {} });
      expect(res.body.status).toBe('started');
      await eventually(async () => {
        expect(await latest(d.id)).toMatchObject({ state: 'succeeded', progress: 100 });
        const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.id}`, { token: t.admin });
        expect(dev.body.data.fw_version).toBe('5.0.0');
        expect(dev.body.data.state.current).not.toBe('DFU');
      }, 15_000);
      expect(d.stats.connects).toBe(2);
    },
  );

  it.each([
    ['bad-hash', 'hash mismatch'],
    ['download-failed', 'download failed: connection lost'],
    ['refuse', 'refused: the device declined the update'],
  ] as const)('fails with the reason when told to (%s)', async (fault, reason) => {
    const d = await simulated(fault);
    await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/dfu/${d.id}`, { token: t.operator, body: {} });
    await eventually(async () => {
      const cmd = await latest(d.id);
      expect(cmd.state).toBe('failed');
      expect(cmd.error).toContain(reason);
    }, 15_000);
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.id}`, { token: t.admin });
    expect(dev.body.data.fw_version).toBe('4.0.0');
  });
});

describe('a rollout of an image bad for the simulated devices', () => {
  it('fails the canary and pauses with the reason; after the image is fixed a retry finishes it', async () => {
    const d = await onlineSimulatedDevice(s, ACME, t.admin, {
      badImages: ['5.0.0'],
      status: { fwVersion: '4.0.0', state: 'WAITING' },
    });
    devices.push(d);
    const rollouts = `/api/v1/tenant/${ACME}/rollouts`;
    const body = { name: `bad ${d.id}`, firmware_id: fw, target: { kind: 'filter', query: `search=${d.id}` } };
    const id = (await s.request('POST', rollouts, { token: t.admin, body })).body.data.id;
    await s.request('POST', `${rollouts}/${id}/start`, { token: t.admin, body: {} });
    const get = async () => (await s.request('GET', `${rollouts}/${id}`, { token: t.admin })).body.data;
    await eventually(async () => expect((await get()).state).toBe('paused'), 20_000);
    expect((await get()).pause_reason).toBe(
      'Stage Canary (1): 1 of 1 devices failed (100 %), over the error threshold of 20 %',
    );
    expect(await latest(d.id)).toMatchObject({ state: 'failed', error: DFU_ERRORS.badImage });
    d.markBadImage('5.0.0', false);
    await s.request('POST', `${rollouts}/${id}/retry`, { token: t.admin, body: {} });
    await eventually(async () => expect((await get()).state).toBe('finished'), 20_000);
    expect((await get()).counts).toMatchObject({ succeeded: 1, failed: 0 });
  });

  it('a bricking image: the device installs it, answers, hangs until the broker’s keepalive drops it, and fails the soak', async () => {
    const d = await onlineSimulatedDevice(s, ACME, t.admin, {
      brickImages: ['5.0.0'],
      keepaliveS: 1,
      status: { fwVersion: '4.0.0', state: 'WAITING' },
    });
    devices.push(d);
    const rollouts = `/api/v1/tenant/${ACME}/rollouts`;
    const target = { kind: 'filter', query: `search=${d.id}` };
    const body = { name: `brick ${d.id}`, firmware_id: fw, target, soak_s: 30, error_threshold_pct: 0 };
    const id = (await s.request('POST', rollouts, { token: t.admin, body })).body.data.id;
    await s.request('POST', `${rollouts}/${id}/start`, { token: t.admin, body: {} });
    const get = async () => (await s.request('GET', `${rollouts}/${id}`, { token: t.admin })).body.data;
    await eventually(async () => expect((await get()).soak_until).not.toBeNull(), 20_000);
    expect(await latest(d.id)).toMatchObject({ state: 'succeeded' });
    // Offline, as a hung device is: not at its reply (no DISCONNECT, no FIN), but once the broker's
    // keepalive (1.5 × 1 s) ran out and it published the Last Will; its reply's state did not bring it back.
    await eventually(async () => {
      const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.id}`, { token: t.admin });
      expect({ fw: dev.body.data.fw_version, online: dev.body.data.online, phase: d.phase }).toEqual({
        fw: '5.0.0',
        online: false,
        phase: 'off',
      });
    }, 15_000);
    const [gone] = rowsOf<{ silent_ms: number; kind: string }>(
      await s.app.db.execute(sql`
        select t.kind, extract(epoch from t.at - c.replied_at) * 1000 as silent_ms
        from device_telemetry t join commands c on c.device = t.device and c.type = 'dfu'
        where t.device = ${d.id} and t.kind in ('online', 'offline') order by t.at desc limit 1`),
    );
    expect(gone!.kind).toBe('offline');
    expect(Number(gone!.silent_ms)).toBeGreaterThan(1000);
    await s.app.rollouts.engine.tick(new Date(new Date((await get()).soak_until).getTime() + 1000));
    expect(await get()).toMatchObject({ state: 'paused', counts: { failed: 1 } });
    const failed = await s.request('GET', `${rollouts}/${id}/devices`, { token: t.admin });
    expect(failed.body.data[0].error).toBe('No report during the soak of 30 s');
  });
});
