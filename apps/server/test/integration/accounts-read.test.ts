import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, entities } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  s = await startServer();
  await s.app.db.insert(entities).values([{ name: 'acme' }, { name: 'globex', description: 'Globex Corp' }]);
  const password_hash = await hashPassword('password-1');
  await s.app.db.insert(accounts).values([
    { name: 'acme_admin', email: 'a@acme.test', password_hash, subtype: 'admin', entity: 'acme', access: ['all'] },
    {
      name: 'acme_dev',
      email: 'd@acme.test',
      password_hash,
      subtype: 'developer',
      entity: 'acme',
      access: ['Site_read'],
    },
    {
      name: 'globex_admin',
      email: 'g@globex.test',
      password_hash,
      subtype: 'admin',
      entity: 'globex',
      access: ['all'],
    },
  ]);
  for (const [name, password] of [
    [ADMIN.name, ADMIN.password],
    ['acme_admin', 'password-1'],
    ['acme_dev', 'password-1'],
  ] as const) {
    tokens[name] = (await s.request('POST', '/api/v1/login', { body: { name, password } })).body.access_token;
  }
});
afterAll(async () => s?.close());

describe('reading the signed-in account', () => {
  it('answers an entity user its own account with its entity under the tenant path', async () => {
    const res = await s.request('GET', '/api/v1/tenant/acme/account/acme_dev', { token: tokens.acme_dev });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'acme_dev',
      subtype: 'developer',
      entity: 'acme',
      access: ['Site_read'],
    });
    expect(res.body.data._entity).toEqual({ name: 'acme', description: '' });
  });

  it('puts the entity and fine-grained access in the login answer and the token', async () => {
    const res = await s.request('POST', '/api/v1/login', { body: { name: 'acme_dev', password: 'password-1' } });
    expect(res.body.entity).toBe('acme');
    const claims = JSON.parse(Buffer.from(res.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ entity: 'acme', subtype: 'developer', permissions: ['Site_read'] });
  });

  it('answers 404 for an account of another entity, exactly as for a missing one', async () => {
    const other = await s.request('GET', '/api/v1/tenant/acme/account/globex_admin', { token: tokens.acme_admin });
    const missing = await s.request('GET', '/api/v1/tenant/acme/account/nobody', { token: tokens.acme_admin });
    expect(other.status).toBe(404);
    expect(other.text).toBe(missing.text);
  });

  it('answers 404 when an entity user names another entity in the path', async () => {
    const res = await s.request('GET', '/api/v1/tenant/globex/account/globex_admin', { token: tokens.acme_admin });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('g@globex.test');
  });

  it('keeps the plain cross-entity path for superadmins', async () => {
    expect((await s.request('GET', '/api/v1/account/globex_admin', { token: tokens.acme_admin })).status).toBe(403);
    const res = await s.request('GET', '/api/v1/account/globex_admin', { token: tokens.admin });
    expect(res.status).toBe(200);
    expect(res.body.data._entity).toEqual({ name: 'globex', description: 'Globex Corp' });
  });
});
