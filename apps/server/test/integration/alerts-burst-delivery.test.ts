import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { applyMatchesLocked } from '../../src/domain/alert/apply-matches.ts';
import { later } from '../helpers/alerts.ts';
import { eventually, randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { startReceiver } from '../helpers/webhooks.ts';

// Issue 29, a burst on the embedded database's one connection: a sweep's step is ONE statement that
// takes the sweep's lock itself (nothing moves when it is taken), and the delivery worker sends alert
// events as soon as alerts change, not at its next poll (a minute here, so only the wake can pass).
let s: TestServer;
let root = '';
let ACME = '';
const receiver = await startReceiver();

beforeAll(async () => {
  ({ s, root, acme: ACME } = await startWithTwoEntities({ ALERT_SWEEP_S: '0', DELIVERY_POLL_MS: '60000' }));
});
afterAll(async () => {
  await s?.close();
  await receiver.close();
});

const ruleOf = async (kind: string) =>
  (await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: root })).body.data.find(
    (r: { kind: string }) => r.kind === kind,
  );

/** A device of ACME whose last sign of life was 30 minutes ago. */
async function silentDevice(): Promise<string> {
  const name = `quiet${randomDeviceId()}`;
  await s.app.db.execute(sql`insert into devices (name, entity, mqtt_secret_hash, updated_at)
    values (${name}, ${ACME}, 'x', now() - interval '30 minutes')`);
  return name;
}

describe('a sweep step in one statement', () => {
  it('moves nothing and answers null when the lock is taken, and raises when it is free', async () => {
    const rule = await ruleOf('unresponsive');
    const device = await silentDevice();
    const matches = sql`select r.id as rule_id, ${device}::text as device, null::uuid as rollout, r.entity,
      r.start_delay_s, r.clear_delay_s, true as hit, '{}'::jsonb as detail
      from alert_rules r where r.id = ${rule.id}`;
    const open = async () =>
      rowsOf<{ n: number }>(
        await s.app.db.execute(
          sql`select count(*)::int as n from alerts where device = ${device} and status <> 'cleared'`,
        ),
      )[0]!.n;

    expect(await applyMatchesLocked(s.app.db, sql`false`, matches, later(0))).toBeNull();
    expect(await open()).toBe(0);
    expect(await applyMatchesLocked(s.app.db, sql`true`, matches, later(0))).toEqual([ACME]);
    expect(await open()).toBe(1);
  });
});

describe('alert events', () => {
  it('reach a webhook as soon as the sweep raises them, long before the next poll', async () => {
    const document = { url: receiver.url, events: ['alert.raised'] };
    const made = await s.request('POST', `/api/v1/tenant/${ACME}/webhooks`, { token: root, body: { document } });
    expect(made.status).toBe(201);
    receiver.useSecret(made.body.data.secret);
    const rule = await ruleOf('unresponsive');
    const put = await s.request('PUT', `/api/v1/tenant/${ACME}/alert-rules/${rule.id}`, {
      token: root,
      body: { operator: { $set: { webhook: true } } },
    });
    expect(put.status).toBe(200);
    const device = await silentDevice();

    await s.app.alerts.evaluator.sweep();
    const event = await eventually(async () => {
      const got = receiver.received.find((r) => r.event.data?.device === device);
      expect(got).toBeDefined();
      return got!;
    }, 15_000);
    expect(event.event.type).toBe('alert.raised');
    expect(event.verified).toBe(true);
  });
});
