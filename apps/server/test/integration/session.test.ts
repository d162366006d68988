import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

const SECRET = 'integration-test-secret-with-enough-length-0123456789';
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ JWT_SECRET: SECRET });
});
afterAll(async () => s?.close());

const login = (name = ADMIN.name, password = ADMIN.password, headers?: Record<string, string>) =>
  s.request('POST', '/api/v1/login', { body: { name, password }, headers });

function claimsOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

describe('login', () => {
  it('answers the token pair, the account and the landlord scope for the superadmin', async () => {
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ logged_in_as: 'admin', entity: 'landlord' });
    const claims = claimsOf(res.body.access_token);
    expect(claims).toMatchObject({
      sub: 'admin',
      subtype: 'sadmin',
      permissions: ['all'],
      typ: 'access',
      entity: null,
    });
    expect(claims.exp - claims.iat).toBe(s.config.ACCESS_TOKEN_TTL_S);
    expect(JSON.parse(Buffer.from(res.body.access_token.split('.')[0], 'base64url').toString()).alg).toBe('HS256');
  });

  it('gives byte-identical answers for an unknown user and a wrong password', async () => {
    const unknown = await login('nobody_here', 'whatever1');
    const wrong = await login(ADMIN.name, 'wrong-password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.text).toBe(wrong.text);
    expect(unknown.headers.get('content-length')).toBe(wrong.headers.get('content-length'));
    expect(wrong.body.errorInfo).toMatchObject({ code: 401, userMessage: 'Wrong username or password' });
  });

  it('lets the access token read the signed-in account and never exposes the password hash', async () => {
    const { body } = await login();
    const res = await s.request('GET', '/api/v1/account/admin', { token: body.access_token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'admin', subtype: 'sadmin', entity: null, _entity: null });
    expect(res.text).not.toMatch(/password|argon2/);
  });
});

describe('refresh', () => {
  it('rotates: the new pair works and the spent refresh token is refused', async () => {
    const first = (await login()).body;
    const next = await s.request('POST', '/api/v1/refresh', { token: first.refresh_token });
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(first.refresh_token);
    expect((await s.request('GET', '/api/v1/account/admin', { token: next.body.access_token })).status).toBe(200);
    const again = await s.request('POST', '/api/v1/refresh', { token: next.body.refresh_token });
    expect(again.status).toBe(200);
  });

  it('revokes the whole family when a spent token is presented again', async () => {
    const first = (await login()).body;
    const second = (await s.request('POST', '/api/v1/refresh', { token: first.refresh_token })).body;
    const reuse = await s.request('POST', '/api/v1/refresh', { token: first.refresh_token });
    expect(reuse.status).toBe(401);
    expect(reuse.body.errorInfo.code).toBe(401);
    // The legitimate holder's newer token is now dead too.
    expect((await s.request('POST', '/api/v1/refresh', { token: second.refresh_token })).status).toBe(401);
  });

  it('does not touch other sessions of the same account when one family is revoked', async () => {
    const a = (await login()).body;
    const b = (await login()).body;
    await s.request('POST', '/api/v1/refresh', { token: a.refresh_token });
    await s.request('POST', '/api/v1/refresh', { token: a.refresh_token });
    expect((await s.request('POST', '/api/v1/refresh', { token: b.refresh_token })).status).toBe(200);
  });

  it('refuses a missing, unknown or access token as a refresh token', async () => {
    const { body } = await login();
    expect((await s.request('POST', '/api/v1/refresh')).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token: 'rt_unknown' })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token: body.access_token })).status).toBe(401);
  });
});

describe('logout', () => {
  it('revokes the family: the refresh token stops working', async () => {
    const { body } = await login();
    const out = await s.request('POST', '/api/v1/logout', { token: body.refresh_token });
    expect(out.status).toBe(204);
    expect((await s.request('POST', '/api/v1/refresh', { token: body.refresh_token })).status).toBe(401);
  });

  it('answers 204 for an unknown token too', async () => {
    expect((await s.request('POST', '/api/v1/logout', { token: 'rt_nothing' })).status).toBe(204);
  });
});

describe('access tokens', () => {
  const get = (token: string) => s.request('GET', '/api/v1/account/admin', { token });

  it('refuses a missing or malformed bearer', async () => {
    expect((await s.request('GET', '/api/v1/account/admin')).status).toBe(401);
    expect((await s.request('GET', '/api/v1/account/admin', { headers: { authorization: 'Basic abc' } })).status).toBe(
      401,
    );
    expect((await get('not.a.jwt')).status).toBe(401);
  });

  it('refuses a token whose payload was tampered with', async () => {
    const { access_token } = (await login()).body;
    const [h, p, sig] = access_token.split('.');
    const claims = { ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'someone_else' };
    const forged = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
    const res = await get(forged);
    expect(res.status).toBe(401);
    expect(res.body.errorInfo.code).toBe(401);
  });

  it('refuses alg none and a token signed with another key', async () => {
    const { access_token } = (await login()).body;
    const payload = access_token.split('.')[1];
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await get(none)).status).toBe(401);
    const claims = claimsOf(access_token);
    const other = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('x'.repeat(40)));
    expect((await get(other)).status).toBe(401);
  });

  it('refuses an expired token and one that is not typ access', async () => {
    const key = new TextEncoder().encode(SECRET);
    const { fam } = claimsOf((await login()).body.access_token);
    const base = { sub: 'admin', entity: null, subtype: 'sadmin', permissions: ['all'], fam };
    const sign = (extra: object, exp: number) =>
      new SignJWT({ ...base, ...extra })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('fleet-console')
        .setAudience('fleet-console-api')
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    expect((await get(await sign({ typ: 'access' }, now + 600))).status).toBe(200);
    expect((await get(await sign({ typ: 'access' }, now - 10))).status).toBe(401);
    expect((await get(await sign({ typ: 'refresh' }, now + 600))).status).toBe(401);
    expect((await get(await sign({ typ: 'access', fam: undefined }, now + 600))).status).toBe(401);
  });

  it('stops accepting the access token of a session the moment it is logged out', async () => {
    const { access_token, refresh_token } = (await login()).body;
    expect((await get(access_token)).status).toBe(200);
    await s.request('POST', '/api/v1/logout', { token: refresh_token });
    const res = await get(access_token);
    expect(res.status).toBe(401);
    expect(res.body.errorInfo.developerMessage).toBe('Session ended');
  });

  it('stops accepting the access tokens of a family revoked for refresh-token reuse', async () => {
    const first = (await login()).body;
    const second = (await s.request('POST', '/api/v1/refresh', { token: first.refresh_token })).body;
    await s.request('POST', '/api/v1/refresh', { token: first.refresh_token });
    expect((await get(second.access_token)).status).toBe(401);
  });
});
