import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, entities, permanentTokens, refreshTokens, sessionFamilies } from '../../src/db/schema.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

let s: TestServer;
let root = '';
const create = (body: unknown) => s.request('POST', '/api/v1/tenant', { token: root, body });

beforeAll(async () => {
  s = await startServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
});
afterAll(async () => s?.close());

describe('entities', () => {
  it("creates from core §7's exact payload, with license tier basic by default", async () => {
    const res = await create({ document: { name: { name: 'acme', description: 'Acme Corp' } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'Entity created',
      data: { name: 'acme', description: 'Acme Corp', license_tier: 'basic' },
    });
    const pro = await create({ document: { name: { name: 'globex', description: '' }, license_tier: 'pro' } });
    expect(pro.body.data.license_tier).toBe('pro');
  });

  it('lists entities by name with a total', async () => {
    const res = await s.request('GET', '/api/v1/tenant?limit=1&offset=1', { token: root });
    expect(res.body).toMatchObject({ total: 2, data: [{ name: 'globex' }] });
  });

  it('refuses a bad name, the reserved landlord name, a duplicate and a bad tier', async () => {
    expect((await create({ document: { name: { name: 'a b' } } })).body.errorInfo.details).toEqual({
      'document.name.name': ['The field may contain alpha-numeric characters as well as underscores'],
    });
    expect((await create({ document: { name: { name: 'landlord' } } })).status).toBe(400);
    expect((await create({ document: { name: { name: 'acme' } } })).status).toBe(409);
    expect((await create({ document: { name: { name: 'x1' }, license_tier: 'gold' } })).status).toBe(400);
    expect((await create({ name: 'flat' })).status).toBe(400);
  });

  it('answers tenant/specific with the entity or its accounts', async () => {
    await s.request('POST', '/api/v1/account', {
      token: root,
      body: {
        document: {
          name: 'boss',
          email: 'b@acme.test',
          password: 'password-1',
          subtype: 'admin',
          entity: 'acme',
          access: ['all'],
        },
      },
    });
    const entity = await s.request('POST', '/api/v1/tenant/specific', {
      token: root,
      body: { type: 'entity', endpoint: 'acme' },
    });
    expect(entity.body.data).toMatchObject({ name: 'acme' });
    const list = await s.request('POST', '/api/v1/tenant/specific', {
      token: root,
      body: { type: 'account', endpoint: 'acme' },
    });
    expect(list.body).toMatchObject({ total: 1, data: [{ name: 'boss' }] });
    expect(
      (await s.request('POST', '/api/v1/tenant/specific', { token: root, body: { type: 'account', endpoint: 'none' } }))
        .status,
    ).toBe(404);
  });

  it("deletes an entity with everything in it, and its users' access ends at once", async () => {
    const boss = await signIn(s, 'boss', 'password-1');
    const pt = (
      await s.request('GET', '/api/v1/tenant/acme/account/boss/permanent-token', { token: boss.access_token })
    ).body.token;
    expect((await s.request('GET', '/api/v1/tenant/acme/account', { token: pt })).status).toBe(200);
    const ids = (await s.app.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.entity, 'acme'))).map(
      (r) => r.id,
    );

    expect((await s.request('DELETE', '/api/v1/tenant/acme', { token: root })).body).toEqual({
      status: 'Entity deleted',
    });

    expect((await s.request('GET', '/api/v1/tenant/acme/account', { token: boss.access_token })).status).toBe(401);
    expect((await s.request('GET', '/api/v1/tenant/acme/account', { token: pt })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token: boss.refresh_token })).status).toBe(401);
    // No orphans: nothing that belonged to the entity or its accounts is left.
    const db = s.app.db;
    const left = await Promise.all([
      db.select({ n: count() }).from(entities).where(eq(entities.name, 'acme')),
      db.select({ n: count() }).from(accounts).where(inArray(accounts.id, ids)),
      db.select({ n: count() }).from(sessionFamilies).where(inArray(sessionFamilies.account_id, ids)),
      db.select({ n: count() }).from(permanentTokens).where(inArray(permanentTokens.account_id, ids)),
      db
        .select({ n: count() })
        .from(refreshTokens)
        .where(eq(refreshTokens.token_hash, hashToken(boss.refresh_token))),
    ]);
    expect(left.map(([r]) => r!.n)).toEqual([0, 0, 0, 0, 0]);
    expect((await s.request('DELETE', '/api/v1/tenant/acme', { token: root })).status).toBe(404);
  });
});
