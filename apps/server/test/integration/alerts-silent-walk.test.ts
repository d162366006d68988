import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { WALK_CHUNK } from '../../src/domain/alert/select-silent-devices.ts';
import { later } from '../helpers/alerts.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 29: the sweep finds silent devices by walking the devices' (updated_at, name) index a
// chunk a statement (select-silent-devices.ts), so no one statement holds PGlite's connection over
// every silent device. A burst's devices share one updated_at: the walk must go on past a chunk's
// end by name, find each silent device of an entity with an unresponsive rule once, and none of
// an entity without one.
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
const N = WALK_CHUNK + 60;
const prefix = `walk${randomDeviceId().slice(0, 6)}`;

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0', DELIVERY_POLL_MS: '0' }));
});
afterAll(async () => {
  await s?.close();
});

const count = async (query: SQL) => rowsOf<{ n: number }>(await s.app.db.execute(query))[0]!.n;

describe('the silent devices of a sweep', () => {
  it('are walked past a chunk of devices silent since the same instant, each alerted once, in its own entity only', async () => {
    // Globex turns its unresponsive rule off: its silent devices, walked among Acme's, stay quiet.
    const rules = (await s.request('GET', `/api/v1/tenant/${GLOBEX}/alert-rules`, { token: root })).body.data;
    const off = rules.find((r: any) => r.kind === 'unresponsive');
    const put = await s.request('PUT', `/api/v1/tenant/${GLOBEX}/alert-rules/${off.id}`, {
      token: root,
      body: { operator: { $set: { enabled: false } } },
    });
    expect(put.status).toBe(200);
    // One statement: every device silent since the same instant; every third is Globex's.
    await s.app.db.execute(sql`
      insert into devices (name, entity, mqtt_secret_hash, updated_at)
      select ${prefix} || lpad(i::text, 6, '0'), case when i % 3 = 0 then ${GLOBEX} else ${ACME} end, 'x',
        now() - interval '30 minutes'
      from generate_series(1, ${N}) i`);
    const ours = sql`a.device like ${`${prefix}%`}`;
    const acmeDevices = N - Math.floor(N / 3);
    expect(acmeDevices).toBeGreaterThan(WALK_CHUNK / 2);

    const changed = await s.app.alerts.evaluator.sweep(later(0));
    expect(changed).toEqual([ACME]);
    const open = sql`select count(*)::int as n from alerts a join devices d on d.name = a.device
      where ${ours} and a.status = 'active'`;
    expect(await count(open)).toBe(acmeDevices);
    // Each of Acme's under Acme's own rule; none of Globex's.
    expect(await count(sql`${open} and a.entity = ${ACME} and d.entity = ${ACME}`)).toBe(acmeDevices);
    expect(await count(sql`${open} and d.entity = ${GLOBEX}`)).toBe(0);
    expect(
      await count(sql`select count(distinct a.device)::int as n from alerts a join alert_rules r on r.id = a.rule_id
        where ${ours} and r.entity = ${ACME}`),
    ).toBe(acmeDevices);

    // A sweep later: nothing new, no second alert.
    expect(await s.app.alerts.evaluator.sweep(later(60))).toEqual([]);
    expect(await count(sql`select count(*)::int as n from alerts a where ${ours}`)).toBe(acmeDevices);
  });
});
