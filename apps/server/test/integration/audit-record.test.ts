import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, groups, kiosks } from '../../src/db/schema.ts';
import { audited } from '../../src/domain/audit/audited.ts';
import { SYSTEM_CONTEXT } from '../../src/domain/audit/audit-context.ts';
import { assertNoSecrets, entriesOf as entriesOfAll, type AuditScope } from '../helpers/audit.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import { ADMIN, type TestServer } from '../helpers/server.ts';
import { createAccount, signIn } from '../helpers/session.ts';

// Each recorded action leaves its entry in the same transaction as the change: before/after
// with secrets redacted, and nothing for a change that rolled back. On the worker's shared server:
// the entries read are the file's own entity's and its own landlord's (BOSS, not the bootstrap
// ADMIN every file signs in as).
let s: TestServer;
let root = '';
let acme = '';
const BOSS = { name: '', password: `landlord-pw-${randomDeviceId()}` };
let scope: AuditScope;
const entriesOf = (srv: TestServer, action: string) => entriesOfAll(srv, action, scope);
const secrets: string[] = [ADMIN.password, BOSS.password];
const ua = { 'user-agent': 'audit-test/1.0' };

beforeAll(async () => {
  const world = await startWithTwoEntities({}, { shared: true });
  ({ s, root, acme } = world);
  secrets.push(root);
  BOSS.name = `boss_${world.tag}`;
  scope = { entities: [acme], actors: [BOSS.name], targets: [BOSS.name] };
  root = (await createAccount(s, root, { name: BOSS.name, subtype: 'sadmin', password: BOSS.password })).access_token;
  secrets.push(root);
});
afterAll(async () => s?.close());

describe('audit entries of changes', () => {
  it('records a device created, changed and deleted, with before/after and who, from where', async () => {
    const name = randomDeviceId();
    const created = await s.request('POST', `/api/v1/tenant/${acme}/device`, {
      token: root,
      headers: ua,
      body: { document: { name, description: 'first', manufacturing_type: 'CC1' } },
    });
    expect(created.status).toBe(201);
    secrets.push(created.body.data.mqtt.password);
    const [create] = await entriesOf(s, 'device.create');
    expect(create).toMatchObject({
      entity: acme,
      actor_kind: 'account',
      actor_name: BOSS.name,
      address: '127.0.0.1',
      user_agent: 'audit-test/1.0',
      target_type: 'device',
      target_name: name,
      outcome: 'success',
    });
    expect(create.changes.after).toMatchObject({ name, description: 'first', mqtt: { password: '[redacted]' } });
    // Written in the device's own statement, the after-state is the device exactly as stored.
    const stored = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}`, { token: root });
    const { mqtt: _mqtt, ...answered } = created.body.data;
    expect(answered).toEqual(stored.body.data);
    expect(create.changes.after).toEqual({ ...answered, mqtt: { username: name, password: '[redacted]' } });

    const put = await s.request('PUT', `/api/v1/tenant/${acme}/device/${name}`, {
      token: root,
      body: { operator: { $set: { description: 'second' } } },
    });
    expect(put.status).toBe(200);
    const [update] = await entriesOf(s, 'device.update');
    expect(update.changes).toEqual({ before: { description: 'first' }, after: { description: 'second' } });

    const rekey = await s.request('POST', `/api/v1/tenant/${acme}/device/${name}/credentials`, { token: root });
    secrets.push(rekey.body.data.password);
    expect(await entriesOf(s, 'device.rekey')).toHaveLength(1);

    expect((await s.request('DELETE', `/api/v1/tenant/${acme}/device/${name}`, { token: root })).status).toBe(200);
    const [del] = await entriesOf(s, 'device.delete');
    expect(del).toMatchObject({ entity: acme, target_name: name, outcome: 'success' });
    expect(del.changes.before).toMatchObject({ name, description: 'second' });
  });

  it('records deleting every device as one entry with the count and the names', async () => {
    const names = [randomDeviceId(), randomDeviceId()];
    for (const name of names) {
      const res = await s.request('POST', `/api/v1/tenant/${acme}/device`, {
        token: root,
        body: { document: { name, description: '', manufacturing_type: 'CC1' } },
      });
      secrets.push(res.body.data.mqtt.password);
    }
    expect((await s.request('DELETE', `/api/v1/tenant/${acme}/device/all`, { token: root })).status).toBe(200);
    const [bulk] = await entriesOf(s, 'device.bulk_delete');
    expect(bulk.details.count).toBe(2);
    expect([...bulk.details.names].sort()).toEqual([...names].sort());
  });

  it('leaves no entry of a change that rolled back, and records the refusal with its reason', async () => {
    await s.app.db.insert(kiosks).values({ entity: acme, name: 'k1', latitude: 1, longitude: 2 });
    await s.app.db.insert(groups).values({ entity: acme, name: 'full', kiosk: 'k1', capacity: 0 });
    const name = randomDeviceId();
    const res = await s.request('POST', `/api/v1/tenant/${acme}/device`, {
      token: root,
      body: { document: { name, description: '', manufacturing_type: 'CC1', group: 'full' } },
    });
    expect(res.status).toBe(409);
    const entries = (await entriesOf(s, 'device.create')).filter((e) => e.target_name === name);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'failure', reason: 'Group at capacity', changes: null });
  });

  it('rolls the entry back with a change that fails after writing, and the change with an entry that fails', async () => {
    const name = randomDeviceId();
    const entry = { action: 'device.create', entity: acme, target: { type: 'device', name } } as const;
    const write = (tx: any) =>
      tx.insert(devices).values({ name, entity: acme, manufacturing_type: 'CC1', mqtt_secret_hash: 'x' });
    await expect(
      audited(s.app.db, SYSTEM_CONTEXT, entry, async (tx) => {
        await write(tx);
        throw new Error('fault after the write');
      }),
    ).rejects.toThrow('fault after the write');
    // An entry the database refuses (an action over the column's bounds is not possible; a bad entity type is).
    await expect(
      audited(s.app.db, SYSTEM_CONTEXT, { ...entry, details: { n: 1n as never } }, async (tx) => write(tx)),
    ).rejects.toThrow();
    expect((await entriesOf(s, 'device.create')).filter((e) => e.target_name === name)).toEqual([]);
    const listed = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}`, { token: root });
    expect(listed.status).toBe(404);
  });
});

describe('audit entries of sessions', () => {
  it('records sign-in, a failed sign-in and sign-out, never the password or tokens', async () => {
    const pair = await signIn(s, BOSS.name, BOSS.password);
    secrets.push(pair.access_token, pair.refresh_token);
    const wrong = await s.request('POST', '/api/v1/login', { body: { name: BOSS.name, password: 'not-the-pw-9' } });
    expect(wrong.status).toBe(401);
    secrets.push('not-the-pw-9');
    const logins = await entriesOf(s, 'session.login');
    expect(logins.filter((e) => e.outcome === 'success').length).toBeGreaterThanOrEqual(2);
    expect(logins.at(-1)).toMatchObject({ outcome: 'failure', reason: 'Wrong password', actor_name: BOSS.name });

    expect((await s.request('POST', '/api/v1/logout', { token: pair.refresh_token })).status).toBe(204);
    expect(await entriesOf(s, 'session.logout')).toEqual([
      expect.objectContaining({ actor_name: BOSS.name, target_type: 'session', outcome: 'success' }),
    ]);
  });

  it('records a refresh family revoked on reuse of a spent refresh token', async () => {
    const pair = await signIn(s, BOSS.name, BOSS.password);
    secrets.push(pair.access_token, pair.refresh_token);
    const next = await s.request('POST', '/api/v1/refresh', { token: pair.refresh_token });
    secrets.push(next.body.access_token, next.body.refresh_token);
    expect((await s.request('POST', '/api/v1/refresh', { token: pair.refresh_token })).status).toBe(401);
    expect(await entriesOf(s, 'session.revoke')).toEqual([
      expect.objectContaining({
        actor_kind: 'system',
        target_name: BOSS.name,
        reason: expect.stringMatching(/reused/),
      }),
    ]);
  });

  it('keeps no secret the tests used in any stored entry', async () => {
    // Every entry of the server is read; more than 5 of them the file's own.
    expect(await assertNoSecrets(s, secrets, scope)).toBeGreaterThan(5);
  });
});
