import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDevice, alertsOf, createRule, ofRule, report } from '../helpers/alerts.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

// Issue 29: a rule scoped to a shared saved view alerts only the devices the view's filter matches;
// the superadmin's view of every entity's alerts, `GET /api/v1/alerts`.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0' }));
});
afterAll(async () => s?.close());

const saveView = (entity: string, body: object) =>
  s.request('POST', `/api/v1/tenant/${entity}/device-view`, { token: root, body });
const postRule = (entity: string, document: object) =>
  s.request('POST', `/api/v1/tenant/${entity}/alert-rules`, { token: root, body: { document } });

describe('a rule scoped to a saved view', () => {
  it('alerts the devices its filter matches and no other', async () => {
    const inside = await alertDevice(s, root, ACME);
    const outside = await alertDevice(s, root, ACME);
    const view = await saveView(ACME, { name: 'Watched', query: `search=${inside.name}`, shared: true });
    expect(view.status).toBe(201);
    await createRule(s, root, ACME, {
      name: 'Watched in error',
      kind: 'device_error',
      scope: 'view',
      scope_name: 'Watched',
    });
    for (const d of [inside, outside]) await report(s, d, { state: 'ERROR' });
    expect(ofRule(await alertsOf(s, root, ACME, inside.name), 'Watched in error')[0]).toMatchObject({
      status: 'active',
    });
    expect(ofRule(await alertsOf(s, root, ACME, outside.name), 'Watched in error')).toEqual([]);
    // The entity-wide default rule saw both.
    expect(ofRule(await alertsOf(s, root, ACME, outside.name), 'Device in ERROR or DEFECT')).toHaveLength(1);
    await report(s, inside, { state: 'ALLOCATED' });
    expect(ofRule(await alertsOf(s, root, ACME, inside.name), 'Watched in error')[0]!.status).toBe('cleared');
    await Promise.all([inside.close(), outside.close()]);
  });

  it('must name a shared view of the entity: a private one, another entity’s or none is refused on the field', async () => {
    expect((await saveView(ACME, { name: 'Mine only', query: 'battery=Low' })).status).toBe(201);
    expect((await saveView(GLOBEX, { name: 'Theirs', query: 'battery=Low', shared: true })).status).toBe(201);
    for (const scope_name of ['Mine only', 'Theirs', 'Nowhere']) {
      const res = await postRule(ACME, { name: `On ${scope_name}`, kind: 'device_error', scope: 'view', scope_name });
      expect(res.status).toBe(400);
      expect(res.body.errorInfo.details['document.scope_name'][0]).toMatch(/No shared saved view named/);
    }
    const unnamed = await postRule(ACME, { name: 'No view', kind: 'device_error', scope: 'view' });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errorInfo.details['document.scope_name']).toEqual(['Name the view']);
  });
});

describe("every entity's alerts", () => {
  it('are listed for superadmins, narrowed by entity and the same filters; refused to entity accounts', async () => {
    const a = await alertDevice(s, root, ACME);
    const g = await alertDevice(s, root, GLOBEX);
    await report(s, a, { state: 'ERROR' });
    await report(s, g, { state: 'DEFECT' });
    const all = await s.request('GET', '/api/v1/alerts?status=open&limit=500', { token: root });
    expect(all.status).toBe(200);
    const entities = new Set(all.body.data.map((x: { entity: string }) => x.entity));
    expect(entities.has(ACME) && entities.has(GLOBEX)).toBe(true);

    const one = await s.request('GET', `/api/v1/alerts?entity=${GLOBEX}&kind=device_error`, { token: root });
    expect(one.body.total).toBe(1);
    expect(one.body.data[0]).toMatchObject({ entity: GLOBEX, device: g.name, kind: 'device_error' });
    expect(
      (await s.request('GET', `/api/v1/alerts?entity=${GLOBEX}&kind=battery_low`, { token: root })).body.total,
    ).toBe(0);
    expect((await s.request('GET', '/api/v1/alerts?limit=0', { token: root })).status).toBe(400);

    for (const subtype of ['admin', 'operator'] as const) {
      const token = (await createAccount(s, root, { name: `${subtype}_${ACME}`, entity: ACME, subtype })).access_token;
      const res = await s.request('GET', `/api/v1/alerts?entity=${ACME}`, { token });
      expect(res.status).toBe(403);
    }
    await Promise.all([a.close(), g.close()]);
  });
});
