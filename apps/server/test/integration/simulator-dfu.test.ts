import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedDevice } from '@fleet/simulator/device';
import type { DfuFault } from '@fleet/simulator/dfu';
import type { TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/devices.ts';
import { onlineSimulatedDevice } from '../helpers/simulated.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

let s: TestServer;
let ACME = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const devices: SimulatedDevice[] = [];

beforeAll(async () => {
  ({ s, acme: ACME, tokens: t } = await startForUploads());
  await upload(s, `/api/v1/tenant/${ACME}/firmware`, t.admin, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: ACME, version: '5.0.0', device_type: 'CC1', description: '' },
    bytes: randomBytes(400_000),
  });
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
