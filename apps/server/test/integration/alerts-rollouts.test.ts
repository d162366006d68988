import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsOf, createRule, later, ofRule } from '../helpers/alerts.ts';
import { connectDevice, eventually, registerDevice, type TestDevice } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

// Issue 29: a firmware update failed (from the command settle path) and a rollout paused (from
// the rollout engine's pause; an alert with no device, one per rule and rollout).
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let fw = '';
let device: TestDevice;
let installs = false;

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startForUploads({ ALERT_SWEEP_S: '0' }, { shared: true }));
  const up = await upload(s, `/api/v1/tenant/${ACME}/firmware`, root, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: ACME, version: '2.0.0', device_type: 'CC1', description: '' },
    bytes: 1000,
  });
  fw = up.body.data.id;
  await createRule(s, root, ACME, {
    name: 'Firmware slow',
    kind: 'firmware_failed',
    start_delay_s: 60,
    clear_delay_s: 60,
  });
  const name = randomBytes(6).toString('hex');
  device = await connectDevice(s, ACME, await registerDevice(s, root, ACME, name));
  device.client.on('message', (_topic, payload) => {
    const cmd = JSON.parse(payload.toString());
    if (cmd.type !== 'dfu') return;
    const reply = installs
      ? { status: 'success', data: { fw_version: '2.0.0' } }
      : { status: 'error', error: 'Install failed: bad image' };
    void device.publish('reply', { id: cmd.id, ...reply });
  });
  await eventually(async () => {
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: root });
    expect(dev.body.data.online).toBe(true);
  });
});
afterAll(async () => {
  await device?.close();
  await s?.close();
});

const api = (method: string, path: string, body?: object) =>
  s.request(method, `/api/v1/tenant/${ACME}/rollouts${path}`, { token: root, ...(body && { body }) });
const state = async (id: string) => (await api('GET', `/${id}`)).body.data.state;
const rolloutAlerts = async (id: string) =>
  (
    (await s.request('GET', `/api/v1/tenant/${ACME}/alerts?kind=rollout_paused`, { token: root })).body.data as any[]
  ).filter((a) => a.rollout === id);

describe('a firmware update failed and a rollout paused', () => {
  it('raise their alerts, one each, and clear by the next successful update and the rollout going on', async () => {
    const created = await api('POST', '', {
      name: `r ${device.name}`,
      firmware_id: fw,
      target: { kind: 'filter', query: `search=${device.name}` },
      canary: 0,
      percents: [100],
      error_threshold_pct: 0,
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await api('POST', `/${id}/start`, {})).status).toBe(200);
    await eventually(async () => {
      await s.app.rollouts.engine.tick();
      expect(await state(id)).toBe('paused');
    }, 15_000);
    await s.app.alerts.evaluator.flush();

    const mine = await alertsOf(s, root, ACME, device.name);
    expect(ofRule(mine, 'Firmware update failed')[0]).toMatchObject({
      kind: 'firmware_failed',
      status: 'active',
      detail: { command: 'dfu', error: 'Install failed: bad image' },
    });
    expect(ofRule(mine, 'Firmware slow')).toEqual([]); // its start delay runs
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await alertsOf(s, root, ACME, device.name), 'Firmware slow')[0]!.status).toBe('active');

    const [paused] = await rolloutAlerts(id);
    expect(paused).toMatchObject({ kind: 'rollout_paused', severity: 'critical', device: null, status: 'active' });
    expect(paused!.detail.reason).toMatch(/over the error threshold of 0 %/);
    // More ticks while paused: still one alert for the rollout; the sweep leaves it open.
    await s.app.rollouts.engine.tick();
    await s.app.alerts.evaluator.sweep();
    expect(await rolloutAlerts(id)).toHaveLength(1);
    expect((await rolloutAlerts(id))[0]!.status).toBe('active');
    // Another entity sees none of it.
    expect((await s.request('GET', `/api/v1/tenant/${GLOBEX}/alerts`, { token: root })).body.total).toBe(0);
    const foreign = await s.request('POST', `/api/v1/tenant/${GLOBEX}/alerts/${paused!.id}/acknowledge`, {
      token: root,
    });
    expect(foreign.status).toBe(404);

    installs = true;
    expect((await api('POST', `/${id}/retry`, {})).status).toBe(200);
    await eventually(async () => {
      await s.app.rollouts.engine.tick();
      expect(await state(id)).toBe('finished');
    }, 15_000);
    await s.app.alerts.evaluator.flush();
    await s.app.alerts.evaluator.sweep();
    expect((await rolloutAlerts(id))[0]).toMatchObject({ status: 'cleared', cleared_by: 'condition' });
    const after = await alertsOf(s, root, ACME, device.name);
    expect(ofRule(after, 'Firmware update failed')[0]!.status).toBe('cleared');
    expect(ofRule(after, 'Firmware slow')[0]!.status).toBe('active'); // its clear delay runs
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await alertsOf(s, root, ACME, device.name), 'Firmware slow')[0]!.status).toBe('cleared');
  });
});
