import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDevice, report } from '../helpers/alerts.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

// Issue 29: the superadmin's view of every entity's alerts, `GET /api/v1/alerts`.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0' }));
});
afterAll(async () => s?.close());

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
