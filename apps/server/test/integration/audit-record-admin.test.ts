import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/lib/tokens.ts';
import { assertNoSecrets, entriesOf as entriesOfAll, type AuditScope } from '../helpers/audit.ts';
import { randomDeviceId } from '../helpers/devices.ts';
import { ADMIN, type TestServer } from '../helpers/server.ts';
import { sharedServer } from '../helpers/shared-server.ts';
import { createAccount, signIn } from '../helpers/session.ts';

// Accounts, entities, their configuration and permanent tokens: each change with its entry. On the
// worker's shared server: done by a landlord of the file's own (BOSS), and the entries read are
// its entity's and the landlord-level ones by BOSS or about that entity.
let s: TestServer;
let root = '';
const tag = randomDeviceId().slice(0, 6);
const entity = `audit_${tag}`;
const user = `user_${tag}`;
const BOSS = { name: `boss_${tag}`, password: `landlord-pw-${randomDeviceId()}` };
const scope: AuditScope = { entities: [entity], actors: [BOSS.name], targets: [entity] };
const entriesOf = (srv: TestServer, action: string) => entriesOfAll(srv, action, scope);
const secrets = [ADMIN.password, BOSS.password, 'first-password-1', 'second-password-2'];
const req = (method: string, path: string, body?: unknown, token = root) =>
  s.request(method, `/api/v1${path}`, { token, body });

beforeAll(async () => {
  s = await sharedServer();
  const admin = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  root = (await createAccount(s, admin, { name: BOSS.name, subtype: 'sadmin', password: BOSS.password })).access_token;
  secrets.push(admin, root);
});
afterAll(async () => s?.close());

describe('audit entries of the landlord and entity admins', () => {
  it('records an entity created and its configuration changed', async () => {
    expect((await req('POST', '/tenant', { document: { name: { name: entity, description: 'd1' } } })).status).toBe(
      201,
    );
    const [created] = await entriesOf(s, 'entity.create');
    expect(created).toMatchObject({ entity: null, target_type: 'entity', target_name: entity, actor_name: BOSS.name });
    expect(created.changes.after).toMatchObject({ name: entity, description: 'd1' });
    const config = await req('PUT', `/tenant/${entity}/config`, { operator: { $set: { devicePath: '/x/y' } } });
    expect(config.status).toBe(200);
    const [update] = await entriesOf(s, 'entity.update');
    expect(update).toMatchObject({ entity, target_name: entity });
    expect(update.changes).toEqual({ before: { devicePath: '' }, after: { devicePath: '/x/y' } });
  });

  it('records an account created, its password and e-mail changed (the password as changed only), deleted', async () => {
    const document = { name: user, email: 'a@x.test', password: 'first-password-1', subtype: 'operator', entity };
    expect((await req('POST', '/account', { document, access: [] })).status).toBe(201);
    const [created] = await entriesOf(s, 'account.create');
    expect(created).toMatchObject({ entity, target_type: 'account', target_name: user });
    expect(created.changes.after).toMatchObject({ name: user, email: 'a@x.test', subtype: 'operator' });

    const set = { email: 'b@x.test', password: 'second-password-2' };
    expect((await req('PUT', `/account/${user}`, { operator: { $set: set } })).status).toBe(200);
    const [update] = await entriesOf(s, 'account.update');
    expect(update.changes).toEqual({ before: { email: 'a@x.test' }, after: { email: 'b@x.test' } });
    expect(update.details).toEqual({ password_changed: true });

    expect((await req('DELETE', `/account/${user}`)).status).toBe(200);
    const [deleted] = await entriesOf(s, 'account.delete');
    expect(deleted).toMatchObject({ entity, target_name: user });
    expect(deleted.changes.before).toMatchObject({ name: user, email: 'b@x.test' });
  });

  it('records a token generated and revoked by hash prefix and description; what it does names it', async () => {
    const made = await req('GET', `/account/${BOSS.name}/permanent-token?description=ci-robot`);
    expect(made.status).toBe(200);
    secrets.push(made.body.token);
    const prefix = hashToken(made.body.token).slice(0, 12);
    const [created] = await entriesOf(s, 'token.create');
    expect(created).toMatchObject({ entity: null, target_type: 'token', target_name: prefix });
    expect(created.changes.after).toEqual({ account: BOSS.name, description: 'ci-robot' });

    const name = randomDeviceId();
    const device = await s.request('POST', `/api/v1/tenant/${entity}/device`, {
      token: made.body.token,
      body: { document: { name, description: '', manufacturing_type: 'CC1' } },
    });
    expect(device.status).toBe(201);
    secrets.push(device.body.data.mqtt.password);
    const [byToken] = await entriesOf(s, 'device.create');
    expect(byToken).toMatchObject({
      actor_kind: 'token',
      actor_id: prefix,
      actor_name: 'ci-robot',
      actor_account: BOSS.name,
      target_name: name,
    });

    expect((await req('DELETE', `/account/${BOSS.name}/token/${made.body.token_hash}`)).status).toBe(200);
    const [revoked] = await entriesOf(s, 'token.delete');
    expect(revoked).toMatchObject({ target_name: prefix, outcome: 'success' });
    expect(revoked.changes.before).toEqual({ account: BOSS.name, description: 'ci-robot' });
  });

  it('records an entity deleted with what went with it, landlord-level', async () => {
    expect((await req('DELETE', `/tenant/${entity}`)).status).toBe(200);
    const [deleted] = await entriesOf(s, 'entity.delete');
    expect(deleted).toMatchObject({ entity: null, target_name: entity, details: { devices: 1, accounts: 0 } });
    expect(deleted.changes.before).toMatchObject({ name: entity });
    // The entity's own entries stay: only the retention sweep removes entries.
    expect((await entriesOf(s, 'entity.update')).length).toBe(1);
  });

  it('keeps no password or token value in any entry', async () => {
    // Every entry of the server is read; more than 8 of them the file's own.
    expect(await assertNoSecrets(s, secrets, scope)).toBeGreaterThan(8);
  });
});
