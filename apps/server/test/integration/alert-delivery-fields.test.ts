import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { alertDevice, later, report } from '../helpers/alerts.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Issue 29, delivery per rule: `email_to` and `webhook` are stored, validated and answered.
let s: TestServer;
let root = '';
let ACME = '';

beforeAll(async () => {
  ({ s, root, acme: ACME } = await startWithTwoEntities({ ALERT_SWEEP_S: '0', DELIVERY_POLL_MS: '0' }));
});
afterAll(async () => s?.close());

const rules = (method: 'POST' | 'PUT', path: string, body: object) =>
  s.request(method, `/api/v1/tenant/${ACME}/alert-rules${path}`, { token: root, body });

describe('alert rule delivery fields', () => {
  it('default to no e-mail and no webhook, and are stored and answered', async () => {
    const listed = (await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: root })).body.data;
    expect(listed.every((r: any) => r.webhook === false && r.email_to.length === 0)).toBe(true);

    const document = { name: 'Ops mail', kind: 'device_error', email_to: ['ops@example.com'], webhook: true };
    const made = await rules('POST', '', { document });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ email_to: ['ops@example.com'], webhook: true });

    const changed = await rules('PUT', `/${made.body.data.id}`, {
      operator: { $set: { email_to: ['a@example.com', 'b@example.com'], webhook: false } },
    });
    expect(changed.status).toBe(200);
    const again = (await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: root })).body.data;
    expect(again.find((r: any) => r.id === made.body.data.id)).toMatchObject({
      email_to: ['a@example.com', 'b@example.com'],
      webhook: false,
    });
  });

  it('answers 400 for a bad address, more than 20 addresses or a webhook that is not a boolean', async () => {
    const base = { name: 'Bad', kind: 'device_error' };
    const bad = await rules('POST', '', { document: { ...base, email_to: ['not-an-address'] } });
    expect(bad.status).toBe(400);
    const many = Array.from({ length: 21 }, (_, i) => `u${i}@example.com`);
    expect((await rules('POST', '', { document: { ...base, email_to: many } })).status).toBe(400);
    expect((await rules('POST', '', { document: { ...base, webhook: 'yes' } })).status).toBe(400);
  });

  it('sends no e-mail without SMTP_URL: the queued burst is dropped', async () => {
    const document = { name: 'Mail without SMTP', kind: 'device_error', email_to: ['ops@example.com'] };
    const made = await rules('POST', '', { document });
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { state: 'ERROR' });
    const queued = async () =>
      rowsOf(await s.app.db.execute(sql`select id from alert_emails where rule_id = ${made.body.data.id}`)).length;
    expect(await queued()).toBe(1);
    await s.app.delivery.tick(later(120));
    expect(await queued()).toBe(0);
    await d.close();
  });
});
