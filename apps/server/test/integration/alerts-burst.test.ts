import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { EVALUATE_CHUNK } from '../../src/domain/alert/evaluate-devices.ts';
import { later } from '../helpers/alerts.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 29, a burst: many devices going silent at once are alerted by the sweep in short steps that
// let other queries through (PGlite has one connection), each alert with its own webhook event and
// e-mail row, written per statement by the alerts' triggers (0023).
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
const N = 2 * EVALUATE_CHUNK + 50;
const prefix = `burst${randomDeviceId().slice(0, 6)}`;

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0', DELIVERY_POLL_MS: '0' }));
});
afterAll(async () => {
  await s?.close();
});

const count = async (query: SQL) => rowsOf<{ n: number }>(await s.app.db.execute(query))[0]!.n;

/** Answers what `work` answers and how many `select 1` went through the database while it ran. */
async function alongside<T>(work: () => Promise<T>): Promise<{ result: T; probes: number }> {
  let done = false;
  let probes = 0;
  const probe = (async () => {
    while (!done) {
      await s.app.db.execute(sql`select 1`);
      if (!done) probes++;
    }
  })();
  try {
    return { result: await work(), probes };
  } finally {
    done = true;
    await probe;
  }
}

describe('a burst of silent devices', () => {
  it('is raised and cleared in steps other queries pass between, with one event and one e-mail row per alert', async () => {
    const rules = (await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: root })).body.data;
    const rule = rules.find((r: any) => r.kind === 'unresponsive');
    const $set = { webhook: true, email_to: ['ops@example.com'], start_delay_s: 60, clear_delay_s: 30 };
    const put = await s.request('PUT', `/api/v1/tenant/${ACME}/alert-rules/${rule.id}`, {
      token: root,
      body: { operator: { $set } },
    });
    expect(put.status).toBe(200);
    const hooks: Record<string, string> = {};
    for (const entity of [ACME, GLOBEX]) {
      const document = { url: 'http://127.0.0.1:9/hook', events: ['alert.raised', 'alert.cleared'] };
      const made = await s.request('POST', `/api/v1/tenant/${entity}/webhooks`, { token: root, body: { document } });
      expect(made.status).toBe(201);
      hooks[entity] = made.body.data.id;
    }
    await s.app.db.execute(sql`
      insert into devices (name, entity, mqtt_secret_hash, updated_at)
      select ${prefix} || lpad(i::text, 6, '0'), ${ACME}, 'x', now() - interval '30 minutes'
      from generate_series(1, ${N}) i`);
    const ours = sql`device like ${`${prefix}%`}`;
    const alerts = (status: string) =>
      count(sql`select count(*)::int as n from alerts where ${ours} and rule_id = ${rule.id} and status = ${status}`);
    const events = (entity: string, type: string) =>
      count(sql`select count(distinct body::jsonb->'data'->>'device')::int as n from webhook_deliveries
        where webhook_id = ${hooks[entity]} and event_type = ${type} and body::jsonb->'data'->>'device' like ${`${prefix}%`}`);

    // Silent, within the start delay: pending, nothing sent.
    await s.app.alerts.evaluator.sweep(later(0));
    expect(await alerts('pending')).toBe(N);
    expect(await events(ACME, 'alert.raised')).toBe(0);

    // Past the start delay: every one raised once, in steps a query passed between.
    const raised = await alongside(() => s.app.alerts.evaluator.sweep(later(61)));
    expect(raised.result).toContain(ACME);
    expect(raised.probes).toBeGreaterThanOrEqual(3);
    expect(await alerts('active')).toBe(N);
    expect(await events(ACME, 'alert.raised')).toBe(N);
    expect(await count(sql`select count(*)::int as n from alert_emails where rule_id = ${rule.id}`)).toBe(N);
    const [sample] = rowsOf<{ body: string }>(
      await s.app.db.execute(sql`select body from webhook_deliveries
        where webhook_id = ${hooks[ACME]} and event_type = 'alert.raised' limit 1`),
    );
    expect(JSON.parse(sample!.body)).toMatchObject({
      type: 'alert.raised',
      entity: ACME,
      data: { entity: ACME, rule_id: rule.id, rule_name: rule.name, kind: 'unresponsive', status: 'active' },
    });
    expect(JSON.parse(sample!.body).data).not.toHaveProperty('condition_ended_at');
    await s.app.alerts.evaluator.sweep(later(120)); // still silent: no second alert, no second event
    expect(await count(sql`select count(*)::int as n from alerts where ${ours}`)).toBe(N);
    expect(await events(ACME, 'alert.raised')).toBe(N);

    // They report again: the clear delay starts, and a sweep past it clears them all in steps.
    await s.app.db.execute(sql`update devices set updated_at = now() where name like ${`${prefix}%`}`);
    const names = Array.from({ length: N }, (_, i) => `${prefix}${String(i + 1).padStart(6, '0')}`);
    s.app.alerts.evaluator.changed(names);
    await s.app.alerts.evaluator.flush();
    expect(await alerts('active')).toBe(N);
    const cleared = await alongside(() => s.app.alerts.evaluator.sweep(later(31)));
    expect(cleared.probes).toBeGreaterThanOrEqual(3);
    expect(await alerts('cleared')).toBe(N);
    expect(await events(ACME, 'alert.cleared')).toBe(N);
    // Another entity's webhook heard none of it.
    expect(await events(GLOBEX, 'alert.raised')).toBe(0);
    expect(await events(GLOBEX, 'alert.cleared')).toBe(0);
  });
});
