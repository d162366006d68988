import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '@fleet/shared/schemas/list';
import { createRule } from '../helpers/alerts.ts';
import { randomDeviceId, registerDevice, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 29: an alert list's total is exact up to offset + limit + COUNT_CAP, then that bound
// flagged total_is_lower_bound (docs/decisions/2026-11-29-alert-total-capped.md): a page during a
// burst of 10,000 alerts no longer counts every one of them.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let device = '';
let rule = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0' }, { shared: true }));
  device = randomDeviceId();
  await registerDevice(s, root, ACME, device);
  rule = (await createRule(s, root, ACME, { name: 'Counted', kind: 'device_error' })).id;
});
afterAll(async () => s?.close());

/** `n` more cleared alerts of the rule on the device (cleared ones are not one per rule and device). */
const addCleared = (n: number) =>
  s.app.db.execute(sql`
    insert into alerts (entity, rule_id, device, status, condition_since, raised_at, cleared_at, cleared_by)
    select ${ACME}, ${rule}::uuid, ${device}, 'cleared', now() - make_interval(secs => i), now() - make_interval(secs => i),
      now(), 'hand'
    from generate_series(1, ${n}) i`);

const page = async (query: string, entity = ACME) => {
  const res = await s.request('GET', `/api/v1/tenant/${entity}/alerts?${query}`, { token: root });
  expect(res.status).toBe(200);
  return res.body as { data: unknown[]; total: number; total_is_lower_bound: boolean };
};

describe("an alert list's total", () => {
  it('is exact up to offset + limit + the cap, then that bound flagged as a lower bound', async () => {
    const bound = 50 + COUNT_CAP;
    await addCleared(bound);
    // Exactly the bound: counted whole.
    expect(await page('limit=50')).toMatchObject({ total: bound, total_is_lower_bound: false });
    expect(await page('limit=50&kind=device_error&status=cleared')).toMatchObject({
      total: bound,
      total_is_lower_bound: false,
    });
    await addCleared(1);
    // One past it: the bound, flagged; the page itself is whole.
    const first = await page('limit=50');
    expect(first).toMatchObject({ total: bound, total_is_lower_bound: true });
    expect(first.data).toHaveLength(50);
    expect(await page('limit=50&kind=device_error')).toMatchObject({ total: bound, total_is_lower_bound: true });
    // A later page counts further: the pager can always reach the next page, and the end.
    expect(await page('limit=50&offset=1000')).toMatchObject({ total: bound + 1, total_is_lower_bound: false });
    expect((await page('limit=50&offset=1050')).data).toHaveLength(1);
    // A filter that matches none, and another entity, count nothing.
    expect(await page('limit=50&status=active')).toMatchObject({ total: 0, total_is_lower_bound: false });
    expect(await page('limit=50', GLOBEX)).toMatchObject({ data: [], total: 0, total_is_lower_bound: false });
  });

  it('is flagged in the superadmin’s list of every entity’s alerts too', async () => {
    const res = await s.request('GET', `/api/v1/alerts?entity=${ACME}&limit=10`, { token: root });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 10 + COUNT_CAP, total_is_lower_bound: true });
  });
});
