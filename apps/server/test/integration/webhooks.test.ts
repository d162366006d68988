import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '@fleet/shared/schemas/webhook';
import { later, report, alertDevice } from '../helpers/alerts.ts';
import { entriesOf } from '../helpers/audit.ts';
import { randomDeviceId, registerDevice, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';
import { startReceiver } from '../helpers/webhooks.ts';

// Issue 29: signed webhooks from a durable queue, driven by an injected clock (`tick(now)`).
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let outsider = '';
const receivers: Array<Awaited<ReturnType<typeof startReceiver>>> = [];

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({ ALERT_SWEEP_S: '0', DELIVERY_POLL_MS: '0' }));
  outsider = (await createAccount(s, root, { name: `ad_${GLOBEX}`, entity: GLOBEX, subtype: 'admin' })).access_token;
});
afterAll(async () => {
  await s?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

const api = (entity: string) => `/api/v1/tenant/${entity}/webhooks`;

/** A receiver and a webhook of `entity` pointing at it, with the secret handed to the receiver. */
async function hooked(entity: string, events: string[] = [...WEBHOOK_EVENTS], answer?: () => number, token = root) {
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  const made = await s.request('POST', api(entity), { token, body: { document: { url: receiver.url, events } } });
  expect(made.status).toBe(201);
  receiver.useSecret(made.body.data.secret);
  return { receiver, hook: made.body.data };
}

const deliveries = async (entity: string, id: string) =>
  (await s.request('GET', `${api(entity)}/${id}/deliveries`, { token: root })).body.data as any[];

describe('webhooks: the API', () => {
  it('creates with a secret shown once, lists without it, changes, rotates and deletes', async () => {
    const body = { document: { url: 'https://hooks.example.com/fleet', events: ['device.created', 'device.created'] } };
    const made = await s.request('POST', api(ACME), { token: root, body });
    expect(made.status).toBe(201);
    expect(made.body.data.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(made.body.data.events).toEqual(['device.created']);
    const listed = (await s.request('GET', api(ACME), { token: root })).body.data;
    expect(listed.find((w: any) => w.id === made.body.data.id)).not.toHaveProperty('secret');

    const path = `${api(ACME)}/${made.body.data.id}`;
    const changed = await s.request('PUT', path, {
      token: root,
      body: { operator: { $set: { events: ['alert.raised'] } } },
    });
    expect(changed.body.data.events).toEqual(['alert.raised']);
    const rotated = await s.request('POST', `${path}/rotate-secret`, { token: root });
    expect(rotated.body.data.secret).not.toBe(made.body.data.secret);
    expect(JSON.stringify(await entriesOf(s, 'webhook.create'))).not.toContain(made.body.data.secret);
    expect((await entriesOf(s, 'webhook.rotate')).length).toBeGreaterThan(0);
    expect((await s.request('DELETE', path, { token: root })).status).toBe(200);
    expect((await s.request('DELETE', path, { token: root })).status).toBe(404);
  });

  it('answers 400 for a plain-http URL off this machine, no events or an unknown one', async () => {
    for (const document of [
      { url: 'http://hooks.example.com/x', events: ['device.created'] },
      { url: 'ftp://127.0.0.1/x', events: ['device.created'] },
      { url: 'https://user:pw@hooks.example.com/x', events: ['device.created'] },
      { url: 'https://hooks.example.com/x', events: [] },
      { url: 'https://hooks.example.com/x', events: ['device.exploded'] },
    ]) {
      expect((await s.request('POST', api(ACME), { token: root, body: { document } })).status).toBe(400);
    }
    expect(
      (
        await s.request('POST', api(ACME), {
          token: root,
          body: { document: { url: 'http://localhost:9/x', events: ['device.created'] } },
        })
      ).status,
    ).toBe(201);
  });

  it("keeps another entity's webhooks invisible and untouchable, and never sends them this entity's events", async () => {
    const mine = await hooked(ACME, ['device.created']);
    const theirs = await hooked(GLOBEX, [...WEBHOOK_EVENTS], undefined, outsider);
    const path = `${api(ACME)}/${mine.hook.id}`;
    expect((await s.request('GET', api(ACME), { token: outsider })).status).toBe(404);
    for (const [method, suffix] of [
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
    ] as const) {
      const body = { operator: { $set: { enabled: false } } };
      for (const target of [`${api(GLOBEX)}/${mine.hook.id}${suffix}`, `${path}${suffix}`])
        expect(
          (await s.request(method, target, { token: outsider, body: method === 'PUT' ? body : undefined })).status,
        ).toBe(404);
    }
    const name = randomDeviceId();
    await registerDevice(s, root, ACME, name);
    await s.app.delivery.tick();
    expect(mine.receiver.received.map((r) => [r.event.type, r.event.data.device])).toEqual([['device.created', name]]);
    expect(theirs.receiver.received.filter((r) => r.event.entity === ACME)).toEqual([]);
    const operator = (await createAccount(s, root, { name: `op_${ACME}`, entity: ACME, subtype: 'operator' }))
      .access_token;
    expect((await s.request('GET', api(ACME), { token: operator })).status).toBe(403);
  });
});

describe('webhooks: delivery', () => {
  it('signs each event so a receiver written from the docs verifies it', async () => {
    const { receiver, hook } = await hooked(ACME, ['device.created', 'device.deleted']);
    const name = randomDeviceId();
    await registerDevice(s, root, ACME, name);
    await s.request('DELETE', `/api/v1/tenant/${ACME}/device/${name}`, { token: root });
    await s.app.delivery.tick();
    // Sent 16 at a time, oldest first: the order at the receiver is not promised.
    expect(receiver.received.map((r) => r.event.type).sort()).toEqual(['device.created', 'device.deleted']);
    for (const r of receiver.received) {
      expect(r.verified).toBe(true);
      expect(r.event).toMatchObject({ type: expect.any(String), entity: ACME, data: { device: name } });
      expect(r.event.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(r.event.occurred_at)).not.toBeNaN();
    }
    // A receiver holding another secret refuses it.
    receiver.useSecret('whsec_wrong');
    await s.request('POST', `${api(ACME)}/${hook.id}/test`, { token: root });
    await s.app.delivery.idle();
    await s.app.delivery.tick();
    expect(receiver.received.at(-1)!.event.type).toBe('webhook.test');
    expect(receiver.received.at(-1)!.verified).toBe(false);
  });

  it('retries after a 500 with back-off, and keeps each attempt in the log', async () => {
    const answers = [500, 200];
    const { receiver, hook } = await hooked(ACME, ['device.created'], () => answers.shift() ?? 200);
    await registerDevice(s, root, ACME, randomDeviceId());
    await s.app.delivery.tick(later(0));
    let [d] = await deliveries(ACME, hook.id);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'HTTP 500' });
    await s.app.delivery.tick(later(20)); // before the 30 s back-off: not yet
    expect(receiver.received).toHaveLength(1);
    await s.app.delivery.tick(later(31));
    [d] = await deliveries(ACME, hook.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    expect(d.log.map((a: any) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(d.log.every((a: any) => a.duration_ms >= 0)).toBe(true);
    expect(receiver.received.map((r) => r.event.id)).toEqual([d.event_id, d.event_id]);
  });

  it('turns off a webhook whose every delivery failed for a day, with a notice and an audit entry', async () => {
    const { hook } = await hooked(ACME, ['device.created'], () => 503);
    await registerDevice(s, root, ACME, randomDeviceId());
    await s.app.delivery.tick(later(0));
    const path = `${api(ACME)}/${hook.id}`;
    const get = async () =>
      (await s.request('GET', api(ACME), { token: root })).body.data.find((w: any) => w.id === hook.id);
    expect(await get()).toMatchObject({ enabled: true, consecutive_failures: 1 });
    await registerDevice(s, root, ACME, randomDeviceId());
    await s.app.delivery.tick(later(25 * 3600));
    const off = await get();
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'Every delivery failed for 24 hours' });
    expect(off.disabled_at).not.toBeNull();
    const [entry] = (await entriesOf(s, 'webhook.disable')).filter((e) => e.target_name === hook.id);
    expect(entry).toMatchObject({ actor_kind: 'system', entity: ACME, reason: 'Every delivery failed for 24 hours' });
    // Off: new events are not queued for it; on again, its failures start afresh.
    const before = (await deliveries(ACME, hook.id)).length;
    await registerDevice(s, root, ACME, randomDeviceId());
    expect(await deliveries(ACME, hook.id)).toHaveLength(before);
    const on = await s.request('PUT', path, { token: root, body: { operator: { $set: { enabled: true } } } });
    expect(on.body.data).toMatchObject({
      enabled: true,
      consecutive_failures: 0,
      disabled_at: null,
      disabled_reason: null,
    });
  });

  it("sends a rule's alerts only when the rule says webhook", async () => {
    const { receiver } = await hooked(ACME, ['alert.raised', 'alert.cleared']);
    const rules = (await s.request('GET', `/api/v1/tenant/${ACME}/alert-rules`, { token: root })).body.data;
    const rule = rules.find((r: any) => r.kind === 'device_error');
    const d = await alertDevice(s, root, ACME);
    await report(s, d, { state: 'ERROR' });
    await s.app.delivery.tick();
    expect(receiver.received).toEqual([]);
    await report(s, d, { state: 'IDLE' });
    const $set = { webhook: true };
    await s.request('PUT', `/api/v1/tenant/${ACME}/alert-rules/${rule.id}`, {
      token: root,
      body: { operator: { $set } },
    });
    await report(s, d, { state: 'DEFECT' });
    await report(s, d, { state: 'IDLE' });
    await s.app.delivery.tick();
    expect(receiver.received.map((r) => [r.event.type, r.event.data.device, r.event.data.rule_name]).sort()).toEqual([
      ['alert.cleared', d.name, rule.name],
      ['alert.raised', d.name, rule.name],
    ]);
    expect(receiver.received.find((r) => r.event.type === 'alert.raised')!.event.data).toMatchObject({
      kind: 'device_error',
      severity: 'critical',
      status: 'active',
    });
    await d.close();
  });
});
