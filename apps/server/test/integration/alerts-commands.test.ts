import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDevice, alertsOf, createRule, later, ofRule, report } from '../helpers/alerts.ts';
import { autoReply, eventually, startWithTwoEntities, type TestDevice } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 29: a failed command and charging stopped, raised from the command settle path and the
// telemetry flush, with their delays (the sweep's injected clock), cleared, one open at a time.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({
    s,
    root,
    acme: ACME,
    globex: GLOBEX,
  } = await startWithTwoEntities({ ALERT_SWEEP_S: '0', COMMAND_REPLY_TIMEOUT_MS: '1500' }, { shared: true }));
  for (const entity of [ACME, GLOBEX]) {
    await createRule(s, root, entity, { name: 'Command failed', kind: 'command_failed' });
    await createRule(s, root, entity, {
      name: 'Command failed slowly',
      kind: 'command_failed',
      start_delay_s: 60,
      clear_delay_s: 60,
    });
    await createRule(s, root, entity, { name: 'Off charge', kind: 'charging_stopped', severity: 'info' });
    await createRule(s, root, entity, {
      name: 'Off charge long',
      kind: 'charging_stopped',
      start_delay_s: 600,
      clear_delay_s: 60,
    });
  }
});
afterAll(async () => s?.close());

/** A device of ACME that answers commands as `answer` says at the time. */
async function commanded(): Promise<{ d: TestDevice; answer: { ok: boolean } }> {
  const d = await alertDevice(s, root, ACME);
  const answer = { ok: false };
  await eventually(async () => {
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.name}`, { token: root });
    expect(dev.body.data.online).toBe(true);
  });
  autoReply(d, () => (answer.ok ? { status: 'success' } : { status: 'error', error: 'Motor jammed' }));
  return { d, answer };
}

const send = async (d: TestDevice, type = 'reboot') => {
  const res = await s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/${d.name}`, {
    token: root,
    body: { payload: { type } },
  });
  await s.app.alerts.evaluator.flush();
  return res.status;
};
const list = (d: TestDevice, entity = ACME) => alertsOf(s, root, entity, d.name);

describe('a command failed', () => {
  it('is raised by a failure (at once, or after the start delay), once, and cleared by the next success', async () => {
    const { d, answer } = await commanded();
    const failedAt = Date.now(); // the alert's condition began after this: a sweep 59 s on is early
    expect(await send(d)).toBe(502);
    const [now] = ofRule(await list(d), 'Command failed');
    expect(now).toMatchObject({ kind: 'command_failed', status: 'active', device: d.name, rollout: null });
    expect(now!.detail).toMatchObject({ command: 'reboot', state: 'failed', error: 'Motor jammed' });
    expect(ofRule(await list(d), 'Command failed slowly')).toEqual([]); // pending

    await send(d, 'refresh'); // fails again: still one open alert per rule
    expect(ofRule(await list(d), 'Command failed')).toHaveLength(1);
    await s.app.alerts.evaluator.sweep(new Date(failedAt + 59_000));
    expect(ofRule(await list(d), 'Command failed slowly')).toEqual([]);
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await list(d), 'Command failed slowly')[0]!.status).toBe('active');

    answer.ok = true;
    expect(await send(d)).toBe(200);
    expect(ofRule(await list(d), 'Command failed')[0]).toMatchObject({ status: 'cleared', cleared_by: 'condition' });
    await s.app.alerts.evaluator.sweep(later(30));
    expect(ofRule(await list(d), 'Command failed slowly')[0]!.status).toBe('active');
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await list(d), 'Command failed slowly')[0]!.status).toBe('cleared');
    // Another entity's rules of the same kind saw nothing.
    expect((await s.request('GET', `/api/v1/tenant/${GLOBEX}/alerts`, { token: root })).body.total).toBe(0);
    await d.close();
  });

  it('a failure remedied within the start delay raises nothing; a silent device (timed out) counts as failed', async () => {
    const { d, answer } = await commanded();
    await send(d);
    answer.ok = true;
    await send(d);
    await s.app.alerts.evaluator.sweep(later(120));
    expect(ofRule(await list(d), 'Command failed slowly')).toEqual([]);
    d.client.removeAllListeners('message');
    expect(await send(d)).toBe(504);
    expect(ofRule(await list(d), 'Command failed')[0]).toMatchObject({
      status: 'active',
      detail: { state: 'timed_out' },
    });
    await d.close();
  });
});

describe('charging stopped', () => {
  it('begins when a device below 100 % stops charging, holds while off charge, and clears when it charges', async () => {
    const d = await alertDevice(s, root, ACME);
    // Never charging since it came: nothing stopped.
    await report(s, d, { battery: 60, is_charging: false });
    expect(ofRule(await list(d), 'Off charge')).toEqual([]);
    await report(s, d, { is_charging: true });
    await report(s, d, { is_charging: false });
    const [raised] = ofRule(await list(d), 'Off charge');
    expect(raised).toMatchObject({ kind: 'charging_stopped', status: 'active', severity: 'info' });
    expect(raised!.detail).toMatchObject({ battery: 60, is_charging: false });
    // Later reports while off charge keep the one alert open; the long rule waits its delay.
    await report(s, d, { battery: 58 });
    expect(ofRule(await list(d), 'Off charge')).toHaveLength(1);
    expect(ofRule(await list(d), 'Off charge long')).toEqual([]);
    await s.app.alerts.evaluator.sweep(later(601));
    expect(ofRule(await list(d), 'Off charge long')[0]!.status).toBe('active');

    await report(s, d, { is_charging: true });
    expect(ofRule(await list(d), 'Off charge')[0]!.status).toBe('cleared');
    await s.app.alerts.evaluator.sweep(later(30));
    expect(ofRule(await list(d), 'Off charge long')[0]!.status).toBe('active');
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await list(d), 'Off charge long')[0]!.status).toBe('cleared');
    await d.close();
  });

  it('a full battery taken off the dock raises nothing', async () => {
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { battery: 100, is_charging: true });
    await report(s, d, { is_charging: false });
    expect(ofRule(await list(d), 'Off charge')).toEqual([]);
    await d.close();
  });
});

describe('rules of the new kinds', () => {
  it('refuse a threshold, and a rollout rule scoped below the entity, on the field', async () => {
    const post = (document: object) =>
      s.request('POST', `/api/v1/tenant/${ACME}/alert-rules`, { token: root, body: { document } });
    const a = await post({ name: 'x', kind: 'command_failed', threshold: 3 });
    expect(a.status).toBe(400);
    expect(a.body.errorInfo.details).toHaveProperty(['document.threshold']);
    const b = await post({ name: 'y', kind: 'rollout_paused', scope: 'group', scope_name: 'g' });
    expect(b.status).toBe(400);
    expect(b.body.errorInfo.details).toHaveProperty(['document.scope']);
  });
});
