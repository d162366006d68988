// Single sign-on against a real OpenID Connect provider on loopback (issue 31; docs/sso.md).
// Runs in both modes: embedded, and with scripts/ci/with-services.sh (PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesOf } from '../helpers/audit.ts';
import { startIdp, walkSignIn, type Idp } from '../helpers/oidc.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { claimsOf, signIn } from '../helpers/session.ts';

let s: TestServer;
let idp: Idp;
let root: string;
const providers: Record<string, string> = {};
const clients = () =>
  ['landlord', 'acme', 'beta'].map((c) => ({
    client_id: `${c}-client`,
    client_secret: `${c}-secret-value`,
    redirect_uris: [`${s.url}/api/v1/sso/callback`],
  }));

async function setProvider(entity: string, body: Record<string, unknown>) {
  const res = await s.request('PUT', `/api/v1/tenant/${entity}/sso`, { token: root, body });
  if (res.status !== 200) throw new Error(`${entity}: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Walks the sign-in and exchanges the console's code: the login answer, or the callback's error. */
async function ssoSignIn(provider: string, login: string, tamper?: (u: URL) => void) {
  const landed = await walkSignIn(s.url, provider, login, tamper);
  expect(landed.pathname).toBe('/auth/sso');
  const code = landed.searchParams.get('code');
  if (!code) return { error: landed.searchParams.get('error') };
  const res = await s.request('POST', '/api/v1/sso/exchange', { body: { code } });
  expect(res.status).toBe(200);
  return { ...res.body, redirect: landed.searchParams.get('redirect'), code };
}

/** Where the server sends a browser that signs out of `provider` too. */
async function endSession(provider: string) {
  const res = await fetch(`${s.url}/api/v1/sso/${provider}/end-session`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

beforeAll(async () => {
  idp = await startIdp();
  s = await startServer({
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: 'landlord-client',
    OIDC_CLIENT_SECRET: 'landlord-secret-value',
    OIDC_LABEL: 'Corporate',
  });
  await idp.configure(clients());
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of ['acme', 'beta']) {
    const res = await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name } } } });
    expect(res.status).toBe(201);
  }
  const accounts = [
    { name: 'root2', email: 'root@landlord.test', subtype: 'sadmin' },
    { name: 'acme_op', email: 'Op@Acme.test', subtype: 'operator', entity: 'acme' },
  ];
  for (const a of accounts) {
    const res = await s.request('POST', '/api/v1/account', {
      token: root,
      body: { document: { ...a, password: 'password-1', access: [] } },
    });
    expect(res.status).toBe(201);
  }
  const common = { issuer: idp.issuer, claim: 'email' };
  providers.acme = (
    await setProvider('acme', {
      ...common,
      label: 'Acme',
      client_id: 'acme-client',
      client_secret: 'acme-secret-value',
    })
  ).id;
  providers.beta = (
    await setProvider('beta', {
      ...common,
      label: 'Beta',
      client_id: 'beta-client',
      client_secret: 'beta-secret-value',
      auto_create: true,
      default_subtype: 'infra',
      default_access: ['Site_read'],
    })
  ).id;
  idp.people.set('root-sub', { email: 'root@landlord.test', email_verified: true });
  idp.people.set('op-sub', { email: 'op@acme.test', email_verified: true });
  idp.people.set('new-sub', { email: 'new.person@beta.test', email_verified: true, preferred_username: 'new.person' });
});

afterAll(async () => {
  await s?.close();
  await idp?.close();
});

describe('single sign-on', () => {
  it('lists the providers by id and label for the login page, entity names not shown', async () => {
    const res = await s.request('GET', '/api/v1/sso/providers');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: 'landlord', label: 'Corporate' },
      { id: providers.acme, label: 'Acme' },
      { id: providers.beta, label: 'Beta' },
    ]);
  });

  it("signs a superadmin in through the landlord's provider (OIDC_* settings)", async () => {
    const out = await ssoSignIn('landlord', 'root-sub');
    expect(out).toMatchObject({ logged_in_as: 'root2', entity: 'landlord', redirect: '/device' });
    expect(claimsOf(out.access_token)).toMatchObject({ sub: 'root2', subtype: 'sadmin' });
    // The same pair as a password sign-in: it refreshes, and the code is spent.
    expect((await s.request('POST', '/api/v1/refresh', { token: out.refresh_token })).status).toBe(200);
    const again = await s.request('POST', '/api/v1/sso/exchange', { body: { code: out.code } });
    expect(again.status).toBe(400);
  });

  it("signs a person into the entity's account its e-mail matches, audited as session.sso", async () => {
    const out = await ssoSignIn(providers.acme!, 'op-sub');
    expect(out).toMatchObject({ logged_in_as: 'acme_op', entity: 'acme' });
    const me = await s.request('GET', '/api/v1/tenant/acme/account/acme_op', { token: out.access_token });
    expect(me.status).toBe(200);
    const [entry] = (await entriesOf(s, 'session.sso')).filter((e) => e.target_name === 'acme_op');
    expect(entry).toMatchObject({ entity: 'acme', outcome: 'success', actor_name: 'acme_op' });
    expect(entry.details).toMatchObject({ provider: 'Acme', created: false });
  });

  it('creates the account on first sign-in with the default type and access, then reuses it', async () => {
    const first = await ssoSignIn(providers.beta!, 'new-sub');
    expect(first).toMatchObject({ logged_in_as: 'new_person', entity: 'beta' });
    expect(claimsOf(first.access_token)).toMatchObject({ subtype: 'infra', permissions: ['Site_read'] });
    const second = await ssoSignIn(providers.beta!, 'new-sub');
    expect(second.logged_in_as).toBe('new_person');
    const list = await s.request('GET', '/api/v1/tenant/beta/account', { token: root });
    expect(list.body.data.map((a: { name: string }) => a.name)).toEqual(['new_person']);
  });

  it("never signs anyone into another entity's account", async () => {
    // The acme operator's e-mail through beta's provider: a new beta account, never acme_op.
    const out = await ssoSignIn(providers.beta!, 'op-sub');
    expect(out.entity).toBe('beta');
    expect(out.logged_in_as).not.toBe('acme_op');
    // Beta's person through acme's provider (which creates nobody): refused.
    const refused = await ssoSignIn(providers.acme!, 'new-sub');
    expect(refused.error).toBe('Single sign-on failed');
    const [failure] = (await entriesOf(s, 'session.sso')).filter((e) => e.outcome === 'failure');
    expect(failure).toMatchObject({ entity: 'acme', reason: expect.stringContaining('No account matches') });
  });

  it('refuses a tampered ID token, a wrong nonce, a wrong issuer and an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, (c: any, original: string) => Promise<string>]> = [
      [
        'tampered',
        async (_c, original) => {
          const [h, p, sig] = original.split('.');
          const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
          const forged = Buffer.from(JSON.stringify({ ...payload, email: 'root@landlord.test' })).toString('base64url');
          return `${h}.${forged}.${sig}`;
        },
      ],
      ['wrong issuer', (c) => idp.sign({ ...c, iss: 'https://idp.example.test' })],
      ['expired', (c) => idp.sign({ ...c, iat: now - 7200, exp: now - 3600 })],
    ];
    for (const [what, rewrite] of cases) {
      idp.rewrite = rewrite;
      const out = await ssoSignIn(providers.acme!, 'op-sub');
      expect(out, what).toEqual({ error: 'Single sign-on failed' });
    }
    idp.rewrite = null;
    const wrongNonce = await ssoSignIn(providers.acme!, 'op-sub', (u) => u.searchParams.set('nonce', 'not-ours'));
    expect(wrongNonce).toEqual({ error: 'Single sign-on failed' });
    const reasons = (await entriesOf(s, 'session.sso')).filter((e) => e.outcome === 'failure').map((e) => e.reason);
    for (const part of ['signature', 'iss', 'exp', 'nonce']) {
      expect(
        reasons.some((r: string) => r.includes(part)),
        part,
      ).toBe(true);
    }
  });

  it("follows a rotation of the provider's signing key", async () => {
    const before = idp.kid();
    await idp.configure(clients());
    expect(idp.kid()).not.toBe(before);
    const out = await ssoSignIn(providers.acme!, 'op-sub');
    expect(out.logged_in_as).toBe('acme_op');
  });

  it("offers the provider's end-session after the console's sign-out: its endpoint, this client, back to the login page", async () => {
    const landed = await walkSignIn(s.url, providers.acme!, 'op-sub');
    expect(landed.searchParams.get('provider')).toBe(providers.acme);
    const to = new URL((await endSession(providers.acme!)) ?? '');
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as {
      end_session_endpoint: string;
    };
    expect(`${to.origin}${to.pathname}`).toBe(discovery.end_session_endpoint);
    expect(to.searchParams.get('client_id')).toBe('acme-client');
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${s.url}/auth/login`);
    const unknown = await fetch(`${s.url}/api/v1/sso/00000000-0000-4000-8000-000000000000/end-session`);
    expect(unknown.status).toBe(404);
  });

  it('refuses a spent or unknown state', async () => {
    const res = await fetch(`${s.url}/api/v1/sso/callback?state=nope&code=x`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/auth\/sso\?error=This\+sign-in\+has\+expired/);
  });
});

describe('provider settings (superadmin)', () => {
  it('never answers the secret, keeps it when left out, and validates', async () => {
    const got = await s.request('GET', '/api/v1/tenant/acme/sso', { token: root });
    expect(got.body.data).toMatchObject({
      label: 'Acme',
      has_secret: true,
      redirect_uri: `${s.url}/api/v1/sso/callback`,
    });
    expect(got.text).not.toContain('acme-secret-value');
    const bad = [
      { label: 'x', issuer: 'http://idp.example.test', client_id: 'c', client_secret: 's' },
      { label: 'x', issuer: 'not a url', client_id: 'c', client_secret: 's' },
      { label: 'x', issuer: idp.issuer, client_id: 'c', client_secret: 's', default_subtype: 'admin' },
      { label: 'x', issuer: idp.issuer, client_id: 'c', client_secret: 's', claim: 'name' },
      { label: '', issuer: idp.issuer, client_id: 'c', client_secret: 's' },
    ];
    for (const body of bad) {
      const res = await s.request('PUT', '/api/v1/tenant/acme/sso', { token: root, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const admin = (
      await s.request('POST', '/api/v1/account', {
        token: root,
        body: {
          document: {
            name: 'acme_admin',
            email: 'a@acme.test',
            password: 'password-1',
            subtype: 'admin',
            entity: 'acme',
            access: ['all'],
          },
        },
      })
    ).status;
    expect(admin).toBe(201);
    const adminToken = (await signIn(s, 'acme_admin', 'password-1')).access_token;
    expect((await s.request('GET', '/api/v1/tenant/acme/sso', { token: adminToken })).status).toBe(403);
    const missing = await s.request('PUT', '/api/v1/tenant/nowhere/sso', {
      token: root,
      body: { label: 'x', issuer: idp.issuer, client_id: 'c', client_secret: 's' },
    });
    expect(missing.status).toBe(404);
  });

  it('answers 502 with a readable message when the provider is down, and password sign-in still works', async () => {
    const down = await setProvider('acme', { label: 'Acme', issuer: 'http://127.0.0.1:9', client_id: 'acme-client' });
    expect(down.has_secret).toBe(true);
    const res = await s.request('GET', `/api/v1/sso/${providers.acme}/start`);
    expect(res.status).toBe(502);
    expect(res.body.errorInfo.userMessage ?? res.text).toMatch(/cannot be reached/);
    expect((await signIn(s, 'acme_op', 'password-1')).entity).toBe('acme');
    // Signing out of a provider that cannot be reached comes straight back to the login page.
    expect(await endSession(providers.acme!)).toBe(`${s.url}/auth/login`);
    await setProvider('acme', { label: 'Acme', issuer: idp.issuer, client_id: 'acme-client' });
  });
});
