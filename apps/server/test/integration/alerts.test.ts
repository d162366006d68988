import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { alertDevice, alertsOf, backdate, evaluated, later, report } from '../helpers/alerts.ts';
import { entriesOf } from '../helpers/audit.ts';
import { eventually, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';
import { readEvents } from '../helpers/sse.ts';

// Issue 29: rules raised and cleared with their delays, by an injected clock (the sweep's `now`).
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let operator = '';
let outsider = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0' }, { shared: true }));
  operator = (await createAccount(s, root, { name: `op_${ACME}`, entity: ACME, subtype: 'operator' })).access_token;
  outsider = (await createAccount(s, root, { name: `ad_${GLOBEX}`, entity: GLOBEX, subtype: 'admin' })).access_token;
});
afterAll(async () => s?.close());

const count = async (token = root, entity = ACME) =>
  (await s.request('GET', `/api/v1/tenant/${entity}/alerts/count`, { token })).body;

describe('default rules', () => {
  it('every new entity starts with the unresponsive, battery, error, firmware, provisioning and rollout rules', async () => {
    const res = await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: operator });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => [r.kind, r.threshold, r.start_delay_s, r.clear_delay_s]).sort()).toEqual([
      ['battery_low', 15, 300, 60],
      ['device_error', null, 0, 0],
      ['firmware_failed', null, 0, 0],
      ['provisioning_failed', null, 0, 0],
      ['rollout_paused', null, 0, 0],
      ['unresponsive', 20, 0, 0],
    ]);
  });
});

describe('battery at or below a level', () => {
  it('is raised after its start delay, once, acknowledged, and cleared after its clear delay once charging', async () => {
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { battery: 10, is_charging: false });
    expect(await alertsOf(s, operator, ACME, d.name)).toEqual([]); // pending: the start delay runs
    await s.app.alerts.evaluator.sweep(later(290));
    expect(await alertsOf(s, operator, ACME, d.name)).toEqual([]);
    const before = (await count()).active;
    await s.app.alerts.evaluator.sweep(later(301));
    const [raised] = await alertsOf(s, operator, ACME, d.name);
    expect(raised).toMatchObject({ kind: 'battery_low', status: 'active', severity: 'warning', device: d.name });
    expect(raised!.detail.battery).toBe(10);
    expect((await count()).active).toBe(before + 1);

    // Still low: one alert per rule and device, however often it reports.
    await report(s, d, { battery: 9 });
    await report(s, d, { battery: 8 });
    expect(await alertsOf(s, operator, ACME, d.name)).toHaveLength(1);

    const ack = await s.request('POST', `/api/v1/tenant/${ACME}/alerts/${raised!.id}/acknowledge`, { token: operator });
    expect(ack.status).toBe(200);
    expect(ack.body.data).toMatchObject({ status: 'acknowledged', acknowledged_by: `op_${ACME}` });
    const again = await s.request('POST', `/api/v1/tenant/${ACME}/alerts/${raised!.id}/acknowledge`, {
      token: operator,
    });
    expect(again.status).toBe(409);
    expect(
      (await entriesOf(s, 'alert.acknowledge')).some(
        (e) => e.target_name === raised!.id && e.actor_name === `op_${ACME}`,
      ),
    ).toBe(true);

    await report(s, d, { is_charging: true });
    await s.app.alerts.evaluator.sweep(later(30));
    expect((await alertsOf(s, operator, ACME, d.name))[0]!.status).toBe('acknowledged');
    await s.app.alerts.evaluator.sweep(later(61));
    expect((await alertsOf(s, operator, ACME, d.name))[0]).toMatchObject({
      status: 'cleared',
      cleared_by: 'condition',
    });
    await d.close();
  });

  it('a level that recovers within the start delay raises nothing', async () => {
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { battery: 5, is_charging: false });
    await report(s, d, { battery: 50 });
    await s.app.alerts.evaluator.sweep(later(400));
    expect(await alertsOf(s, operator, ACME, d.name)).toEqual([]);
    await d.close();
  });
});

describe('a device in ERROR or DEFECT', () => {
  it('is raised at once and cleared when the state moves on; history is kept', async () => {
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { state: 'DEFECT' });
    expect((await alertsOf(s, operator, ACME, d.name))[0]).toMatchObject({ kind: 'device_error', status: 'active' });
    await report(s, d, { state: 'ALLOCATED' });
    await report(s, d, { state: 'ERROR' });
    const list = await alertsOf(s, operator, ACME, d.name);
    expect(list.map((a) => a.status)).toEqual(['active', 'cleared']);
    const cleared = await s.request('POST', `/api/v1/tenant/${ACME}/alerts/${list[0]!.id}/clear`, { token: operator });
    expect(cleared.body.data).toMatchObject({ status: 'cleared', cleared_by: `op_${ACME}` });
    await d.close();
  });
});

describe('a device unresponsive', () => {
  it('is raised by the sweep once silent 20 minutes, and cleared by its next report', async () => {
    const d = await alertDevice(s, root, ACME);
    await evaluated(s);
    // Its coming online is written on its own (through the broker in scale mode): after it, or it
    // would make the device heard from just after the backdating.
    await eventually(async () => {
      const [row] = rowsOf<{ online: boolean }>(
        await s.app.db.execute(sql`select online from devices where name = ${d.name}`),
      );
      expect(row?.online).toBe(true);
    });
    await backdate(s, d.name, 19 * 60_000);
    await s.app.alerts.evaluator.sweep();
    expect(await alertsOf(s, operator, ACME, d.name)).toEqual([]);
    await backdate(s, d.name, 21 * 60_000);
    await s.app.alerts.evaluator.sweep();
    expect((await alertsOf(s, operator, ACME, d.name))[0]).toMatchObject({ kind: 'unresponsive', status: 'active' });
    await s.app.alerts.evaluator.sweep(); // no second alert for the same silence
    expect(await alertsOf(s, operator, ACME, d.name)).toHaveLength(1);
    await report(s, d, { battery: 80 });
    expect((await alertsOf(s, operator, ACME, d.name))[0]!.status).toBe('cleared');
    await d.close();
  });
});

describe('the live count', () => {
  it('streams the figures now and after each change', async () => {
    const d = await alertDevice(s, root, ACME);
    const base = (await count()).active;
    let opened!: () => void;
    const first = new Promise<void>((r) => (opened = r));
    const stream = readEvents(`${s.url}/api/v1/tenant/${ACME}/alerts/events`, operator, {
      onEvent: () => opened(),
      stopAfter: (e) => e.event === 'count' && e.data.active === base + 1,
    });
    await first;
    await report(s, d, { state: 'ERROR' });
    const { events } = await stream;
    expect(events[0]!.data.active).toBe(base);
    expect(events.at(-1)!.data).toMatchObject({ active: base + 1 });
    await report(s, d, { state: 'ALLOCATED' });
    await d.close();
  });
});

describe('rules', () => {
  it('are validated, changed by admins only, and audited', async () => {
    const bad = await s.request('POST', `/api/v1/tenant/${ACME}/alert-rules`, {
      token: root,
      body: { document: { name: 'Too quick', kind: 'unresponsive', threshold: 5 } },
    });
    expect(bad.status).toBe(400);
    const noGroup = await s.request('POST', `/api/v1/tenant/${ACME}/alert-rules`, {
      token: root,
      body: { document: { name: 'Group', kind: 'device_error', scope: 'group', scope_name: 'nope' } },
    });
    expect(noGroup.status).toBe(400);
    const body = { document: { name: 'Battery critical', kind: 'battery_low', threshold: 5, severity: 'critical' } };
    expect((await s.request('POST', `/api/v1/tenant/${ACME}/alert-rules`, { token: operator, body })).status).toBe(403);
    const made = await s.request('POST', `/api/v1/tenant/${ACME}/alert-rules`, { token: root, body });
    expect(made.status).toBe(201);
    expect((await s.request('POST', `/api/v1/tenant/${ACME}/alert-rules`, { token: root, body })).status).toBe(409);
    const id = made.body.data.id;
    const put = (token: string, $set: object, entity = ACME) =>
      s.request('PUT', `/api/v1/tenant/${entity}/alert-rules/${id}`, { token, body: { operator: { $set } } });
    expect((await put(root, { threshold: 101 })).status).toBe(400);
    expect((await put(root, { kind: 'unresponsive' })).status).toBe(400);
    const changed = await put(root, { start_delay_s: 10 });
    expect(changed.body, changed.text).toMatchObject({ data: { start_delay_s: 10 } });
    expect((await entriesOf(s, 'alert_rule.update')).filter((e) => e.entity === ACME).length).toBeGreaterThan(0);
    expect((await s.request('DELETE', `/api/v1/tenant/${ACME}/alert-rules/${id}`, { token: root })).status).toBe(200);
    expect((await s.request('DELETE', `/api/v1/tenant/${ACME}/alert-rules/${id}`, { token: root })).status).toBe(404);
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/alerts?limit=9999`, { token: root })).status).toBe(400);
  });
});

describe('another entity', () => {
  it("sees and touches none of the entity's alerts or rules", async () => {
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { state: 'ERROR' });
    const [alert] = await alertsOf(s, root, ACME, d.name);
    const rules = (await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: root })).body.data;
    for (const path of ['alerts', 'alert-rules', 'alerts/count', 'alerts/events'])
      expect((await s.request('GET', `/api/v1/tenant/${ACME}/${path}`, { token: outsider })).status).toBe(404);
    expect(await alertsOf(s, outsider, GLOBEX, d.name)).toEqual([]);
    for (const change of ['acknowledge', 'clear']) {
      const own = await s.request('POST', `/api/v1/tenant/${GLOBEX}/alerts/${alert!.id}/${change}`, {
        token: outsider,
      });
      expect(own.status).toBe(404);
    }
    const rule = `/api/v1/tenant/${GLOBEX}/alert-rules/${rules[0].id}`;
    expect((await s.request('DELETE', rule, { token: outsider })).status).toBe(404);
    expect(
      (await s.request('PUT', rule, { token: outsider, body: { operator: { $set: { enabled: false } } } })).status,
    ).toBe(404);
    expect((await alertsOf(s, root, ACME, d.name))[0]!.status).toBe('active');
    expect((await count(outsider, GLOBEX)).active).toBe(0);
    await d.close();
  });
});
