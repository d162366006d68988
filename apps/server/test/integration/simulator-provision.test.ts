import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedDevice } from '@fleet/simulator/device';
import type { ProvisionFault } from '@fleet/simulator/provision';
import type { TestServer } from '../helpers/server.ts';
import { eventually } from '../helpers/devices.ts';
import { onlineSimulatedDevice } from '../helpers/simulated.ts';
import { readEvents } from '../helpers/sse.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

let s: TestServer;
let ACME = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const devices: SimulatedDevice[] = [];

beforeAll(async () => {
  ({ s, acme: ACME, tokens: t } = await startForUploads({ PROVISION_TIMEOUT_MS: '1500' }, { shared: true }));
  for (let i = 0; i < 4; i++) {
    const res = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, {
      fields: { level: 'entity', entity_id: ACME, file_device_path: `data/file${i}.bin` },
      filename: `file${i}.bin`,
      bytes: randomBytes(20_000 + i),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop()));
  await s?.close();
});

/** A simulated device of the entity, online, that never sleeps. */
async function simulated(provisionFault: ProvisionFault) {
  const d = await onlineSimulatedDevice(s, ACME, t.admin, { provisionFault, status: { state: 'WAITING' } });
  devices.push(d);
  return d;
}

const provision = async (d: SimulatedDevice) => {
  const res = await s.request('POST', `/api/v1/tenant/${ACME}/provision/${d.id}`, { token: t.operator });
  expect(res.status).toBe(200);
  return readEvents(`${s.url}/api/v1/tenant/${ACME}/provision/${d.id}/events`, t.operator);
};

describe('the simulator provisions for real', () => {
  it.each([
    ['none', 4, 0],
    ['some-fail', 2, 2],
    ['all-fail', 0, 4],
    ['link-drop', 4, 0],
  ] as const)('downloads, verifies and reports every file (%s)', async (fault, completed, failed) => {
    const d = await simulated(fault);
    const { events } = await provision(d);
    const last = events.at(-1)!;
    expect(last.event).toBe('provision_completed');
    expect(last.data).toMatchObject({ completed_files: completed, failed_files: failed, total_files: 4 });
    // The device notes its outcome once its last report is acknowledged; the event can be first.
    await eventually(async () => expect(d.provisions).toEqual([expect.objectContaining({ completed, failed })]));
    if (fault === 'link-drop') expect(d.stats.connects).toBe(2);
    await eventually(async () => {
      const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.id}`, { token: t.admin });
      expect(dev.body.data.state.current).toBe('WAITING');
      expect(dev.body.data.current_provision).toBeNull();
    });
  });

  it('a device that stalls times out, and is told to stop', async () => {
    const d = await simulated('stall');
    const { events } = await provision(d);
    expect(events.map((e) => e.event)).toEqual(['connection', 'provision_started', 'provisioning_ready', 'timeout']);
    // The server's cancel frees the device for the next session.
    d.provisionFault = 'none';
    await eventually(async () => expect(d.model.provisioning).toBe(false));
    const again = await provision(d);
    expect(again.events.at(-1)!.data).toMatchObject({ outcome: 'success' });
  }, 15_000);
});
