import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { claimsOf, signIn } from '../helpers/session.ts';

let s: TestServer;
let root = '';
const post = (path: string, token: string, body: unknown) => s.request('POST', path, { token, body });
const put = (path: string, token: string, $set: unknown) =>
  s.request('PUT', path, { token, body: { operator: { $set } } });

beforeAll(async () => {
  s = await startServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  await post('/api/v1/tenant', root, { document: { name: { name: 'acme', description: 'Acme' } } });
  await post('/api/v1/account', root, {
    document: {
      name: 'boss',
      email: 'boss@acme.test',
      password: 'password-1',
      subtype: 'admin',
      entity: 'acme',
      access: ['all'],
    },
  });
});
afterAll(async () => s?.close());

describe('creating accounts', () => {
  it('answers 201 with the status text and the account, never a password hash', async () => {
    const res = await post('/api/v1/account', root, {
      document: {
        name: 'dora',
        email: 'dora@acme.test',
        password: 'password-1',
        subtype: 'developer',
        entity: 'acme',
        access: ['Site_read', 'Group_all'],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: 'Account created',
      data: expect.objectContaining({ name: 'dora', entity: 'acme', access: ['Site_read', 'Group_all'] }),
    });
    expect(res.text).not.toMatch(/password|argon/i);
    const claims = claimsOf((await signIn(s, 'dora', 'password-1')).access_token);
    expect(claims.permissions).toEqual(['Site_read', 'Group_all']);
  });

  it('applies the validation rules with the spec messages', async () => {
    const res = await post('/api/v1/account', root, {
      document: { name: 'bad name', email: 'nope', password: '123', subtype: 'developer', entity: 'acme' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.details).toEqual({
      'document.name': ['The field may contain alpha-numeric characters as well as underscores'],
      'document.email': ['The e-mail address is not valid'],
      'document.password': ['The password must be at least 6 characters'],
    });
  });

  it('requires an entity unless the account is a superadmin, and gives a superadmin none', async () => {
    const noEntity = await post('/api/v1/account', root, {
      document: { name: 'lost', email: 'l@x.test', password: 'password-1', subtype: 'operator' },
    });
    expect(noEntity.status).toBe(400);
    expect(noEntity.body.errorInfo.details).toEqual({ 'document.entity': ['This field is required'] });
    const unknown = await post('/api/v1/account', root, {
      document: { name: 'lost', email: 'l@x.test', password: 'password-1', subtype: 'operator', entity: 'nowhere' },
    });
    expect(unknown.body.errorInfo.details).toEqual({ 'document.entity': ['Unknown entity'] });
    const sadmin = await post('/api/v1/account', root, {
      document: { name: 'root2', email: 'r@x.test', password: 'password-1', subtype: 'sadmin', entity: 'acme' },
    });
    expect(sadmin.status).toBe(201);
    expect(sadmin.body.data).toMatchObject({ entity: null, access: ['all'] });
  });

  it('keeps names unique: a second account of the same name is a 409', async () => {
    const again = await post('/api/v1/account', root, {
      document: { name: 'boss', email: 'b2@x.test', password: 'password-1', subtype: 'developer', entity: 'acme' },
    });
    expect(again.status).toBe(409);
    expect(again.body.errorInfo.details).toEqual({ 'document.name': ['An account with this name already exists'] });
  });

  it("puts an entity admin's new account in the admin's entity, whatever the document says", async () => {
    const boss = (await signIn(s, 'boss', 'password-1')).access_token;
    const res = await post('/api/v1/tenant/acme/account', boss, {
      document: { name: 'ivy', email: 'i@acme.test', password: 'password-1', subtype: 'infra', entity: 'elsewhere' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.entity).toBe('acme');
  });
});

describe('changing and deleting accounts', () => {
  it('lets anyone change their own e-mail but not their own type', async () => {
    await post('/api/v1/account', root, {
      document: { name: 'olga', email: 'o@acme.test', password: 'password-1', subtype: 'operator', entity: 'acme' },
    });
    const olga = (await signIn(s, 'olga', 'password-1')).access_token;
    expect((await put('/api/v1/tenant/acme/account/olga', olga, { email: 'olga@acme.test' })).status).toBe(200);
    const promote = await put('/api/v1/tenant/acme/account/olga', olga, { subtype: 'admin' });
    expect(promote.status).toBe(403);
  });

  it('drops an unchanged name and renames on a changed one', async () => {
    await post('/api/v1/account', root, {
      document: { name: 'ren', email: 'r@acme.test', password: 'password-1', subtype: 'developer', entity: 'acme' },
    });
    const same = await put('/api/v1/account/ren', root, { name: 'ren', email: 'ren@acme.test' });
    expect(same.body).toMatchObject({ status: 'Account saved', data: { name: 'ren', email: 'ren@acme.test' } });
    const renamed = await put('/api/v1/account/ren', root, { name: 'renata' });
    expect(renamed.body.data.name).toBe('renata');
    expect((await put('/api/v1/account/renata', root, { name: 'boss' })).status).toBe(409);
  });

  it('refuses unknown fields in $set', async () => {
    const res = await put('/api/v1/account/boss', root, { password_hash: 'x' });
    expect(res.status).toBe(400);
  });

  it('never lets anyone delete their own account', async () => {
    const self = await s.request('DELETE', '/api/v1/account/admin', { token: root });
    expect(self.status).toBe(403);
    const boss = (await signIn(s, 'boss', 'password-1')).access_token;
    expect((await s.request('DELETE', '/api/v1/tenant/acme/account/boss', { token: boss })).status).toBe(403);
  });

  it("ends the account's sessions and tokens at once when it is deleted", async () => {
    await post('/api/v1/account', root, {
      document: { name: 'gone', email: 'g@acme.test', password: 'password-1', subtype: 'developer', entity: 'acme' },
    });
    const gone = await signIn(s, 'gone', 'password-1');
    const pt = (
      await s.request('GET', '/api/v1/tenant/acme/account/gone/permanent-token', { token: gone.access_token })
    ).body.token;
    expect((await s.request('DELETE', '/api/v1/account/gone', { token: root })).body).toEqual({
      status: 'Account deleted',
    });
    expect((await s.request('GET', '/api/v1/tenant/acme/account', { token: gone.access_token })).status).toBe(401);
    expect((await s.request('GET', '/api/v1/tenant/acme/account', { token: pt })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token: gone.refresh_token })).status).toBe(401);
  });
});

describe('changing a password', () => {
  it('keeps the session it was changed from and ends every other session of the account', async () => {
    await post('/api/v1/account', root, {
      document: { name: 'pat', email: 'p@acme.test', password: 'password-1', subtype: 'developer', entity: 'acme' },
    });
    const here = await signIn(s, 'pat', 'password-1');
    const there = await signIn(s, 'pat', 'password-1');
    expect((await put('/api/v1/tenant/acme/account/pat', here.access_token, { password: 'password-2' })).status).toBe(
      200,
    );
    expect((await s.request('GET', '/api/v1/tenant/acme/account/pat', { token: here.access_token })).status).toBe(200);
    expect((await s.request('GET', '/api/v1/tenant/acme/account/pat', { token: there.access_token })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token: there.refresh_token })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/login', { body: { name: 'pat', password: 'password-1' } })).status).toBe(
      401,
    );
    await signIn(s, 'pat', 'password-2');
  });

  it("ends all of the account's sessions when someone else changes it, or changes its rights", async () => {
    const pat = await signIn(s, 'pat', 'password-2');
    expect((await put('/api/v1/tenant/acme/account/pat', root, { password: 'password-3' })).status).toBe(200);
    expect((await s.request('GET', '/api/v1/tenant/acme/account/pat', { token: pat.access_token })).status).toBe(401);
    const again = await signIn(s, 'pat', 'password-3');
    expect((await put('/api/v1/account/pat', root, { access: ['Dataview_all'] })).status).toBe(200);
    expect((await s.request('GET', '/api/v1/tenant/acme/account/pat', { token: again.access_token })).status).toBe(401);
    expect(claimsOf((await signIn(s, 'pat', 'password-3')).access_token).permissions).toEqual(['Dataview_all']);
  });
});
