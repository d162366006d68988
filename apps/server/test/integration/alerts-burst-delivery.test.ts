import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { startReceiver } from '../helpers/webhooks.ts';

// Issue 29, a burst: the delivery worker sends alert events as soon as alerts change, not at its
// next poll (a minute here, so only the wake can pass).
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
