// Two-factor sign-in with TOTP (issue 31; docs/two-factor.md), with an injected clock. Runs in both
// modes: embedded, and with scripts/ci/with-services.sh (PostgreSQL), where a second instance on the
// same database shows that a used code is refused everywhere (embedded, one instance owns the database).
import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorClock } from '../../src/domain/two-factor/totp.ts';
import { entriesOf } from '../helpers/audit.ts';
import { ADMIN, startPeer, startServer, type TestServer } from '../helpers/server.ts';
import { createAccount, signIn } from '../helpers/session.ts';

type Peer = Awaited<ReturnType<typeof startPeer>>;
let s: TestServer;
let peer: Peer | undefined;
const other = () => peer ?? s;
let root: string;
// The start of the current 30 s step; each test moves it on as it needs. Near the real time, not
// a fixed date: the password step's throttle reads the real clock, and a block recorded at a time
// long past (or far ahead) would have lapsed (or not begun) there.
let now = Math.floor(Date.now() / 30_000) * 30_000;
const tick = (seconds: number) => (now += seconds * 1000);
const codeAt = (secret: string, at = now) => authenticator.clone({ epoch: at }).generate(secret);

const login = (name: string, on: Pick<TestServer, 'request'> = s) =>
  on.request('POST', '/api/v1/login', { body: { name, password: 'password-1' } });
const finish = (challenge: string, code: string, on: Pick<TestServer, 'request'> = s) =>
  on.request('POST', '/api/v1/login/two-factor', { body: { challenge, code } });

/** Enrols a signed-in account: answers its secret and recovery codes. */
async function enrol(token: string) {
  const start = await s.request('POST', '/api/v1/two-factor/enrol', { token });
  expect(start.status).toBe(200);
  const { secret, otpauth_uri } = start.body;
  expect(otpauth_uri).toContain(`secret=${secret}`);
  const done = await s.request('POST', '/api/v1/two-factor/confirm', { token, body: { code: codeAt(secret) } });
  expect(done.status).toBe(200);
  tick(30);
  return { secret: secret as string, recovery: done.body.recovery_codes as string[] };
}

beforeAll(async () => {
  twoFactorClock.now = () => new Date(now);
  s = await startServer();
  if (process.env.DATABASE_URL) peer = await startPeer(s);
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of ['acme', 'beta']) {
    const res = await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name } } } });
    expect(res.status).toBe(201);
  }
});

afterAll(async () => {
  twoFactorClock.now = () => new Date();
  await peer?.close();
  await s?.close();
});

describe('two-factor sign-in', () => {
  it('enrols from the account, then signs in with a code after the password; the secret is never shown again', async () => {
    const op = await createAccount(s, root, { name: 'tf_op', entity: 'acme', subtype: 'operator' });
    const { secret, recovery } = await enrol(op.access_token);
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    const status = await s.request('GET', '/api/v1/two-factor', { token: op.access_token });
    expect(status.body).toEqual({ enrolled: true, required: false, recovery_codes_left: 10 });
    expect(status.text).not.toContain(secret);
    expect((await s.request('POST', '/api/v1/two-factor/enrol', { token: op.access_token })).status).toBe(409);

    const first = await login('tf_op');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ two_factor: 'verify', logged_in_as: 'tf_op' });
    expect(first.body.access_token).toBeUndefined();
    const done = await finish(first.body.challenge, codeAt(secret));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ logged_in_as: 'tf_op', entity: 'acme' });
    const me = await s.request('GET', '/api/v1/tenant/acme/account/tf_op', { token: done.body.access_token });
    expect(me.status).toBe(200);
    // The challenge is spent with the sign-in.
    tick(30);
    expect((await finish(first.body.challenge, codeAt(secret))).status).toBe(401);
  });

  it('refuses a wrong code, a code two steps old, and a used code on either instance; wrong codes are throttled', async () => {
    const op = await createAccount(s, root, { name: 'tf_replay', entity: 'acme', subtype: 'operator' });
    const { secret } = await enrol(op.access_token);
    tick(90);
    const c1 = (await login('tf_replay')).body.challenge;
    expect((await finish(c1, '000000' === codeAt(secret) ? '111111' : '000000')).status).toBe(401);
    expect((await finish(c1, codeAt(secret, now - 60_000))).status).toBe(401);
    // One step late is within the window.
    const code = codeAt(secret, now - 30_000);
    expect((await finish(c1, code)).status).toBe(200);
    // The same code again, through the other instance: refused, as is any code of an earlier step.
    const again = await login('tf_replay', other());
    expect(again.body.two_factor, again.text).toBe('verify');
    const c2 = again.body.challenge;
    const replay = await finish(c2, code, other());
    expect(replay.status).toBe(401);
    expect(replay.body.message ?? replay.text).toContain('Wrong or already used code');
    expect((await finish(c2, codeAt(secret, now - 30_000), other())).status).toBe(401);
    // Five failures from one address block the name there, the password step too, right code or not.
    for (const wrong of ['12345x', '1', 'zzzzz-zzzzz']) expect((await finish(c2, wrong)).status).toBe(401);
    expect((await finish(c2, codeAt(secret))).status).toBe(429);
    expect((await login('tf_replay')).status).toBe(429);
  });

  it('takes each recovery code once', async () => {
    const op = await createAccount(s, root, { name: 'tf_recover', entity: 'beta', subtype: 'developer' });
    const { recovery } = await enrol(op.access_token);
    const c1 = (await login('tf_recover')).body.challenge;
    expect((await finish(c1, ` ${recovery[3]!.toUpperCase()} `)).status).toBe(200);
    const c2 = (await login('tf_recover')).body.challenge;
    expect((await finish(c2, recovery[3]!)).status).toBe(401);
    const done = await finish(c2, recovery[4]!);
    expect(done.status).toBe(200);
    const status = await s.request('GET', '/api/v1/two-factor', { token: done.body.access_token });
    expect(status.body.recovery_codes_left).toBe(8);
  });

  it("enforces it for an entity's admins and for superadmins: one without a factor is told to enrol and finishes signing in by enrolling", async () => {
    const boss = await createAccount(s, root, { name: 'tf_boss', entity: 'beta', subtype: 'admin' });
    await createAccount(s, root, { name: 'tf_worker', entity: 'beta', subtype: 'operator' });
    const path = '/api/v1/tenant/beta/two-factor-requirement';
    // The plain path (the superadmins' requirement) is the landlord's alone.
    expect(
      (
        await s.request('PUT', '/api/v1/two-factor-requirement', {
          token: boss.access_token,
          body: { required_for_admins: true },
        })
      ).status,
    ).toBe(403);
    const set = await s.request('PUT', path, { token: boss.access_token, body: { required_for_admins: true } });
    expect(set.status).toBe(200);
    expect((await s.request('GET', path, { token: boss.access_token })).body).toEqual({ required_for_admins: true });
    expect((await entriesOf(s, 'account.two_factor_requirement')).at(-1)).toMatchObject({
      entity: 'beta',
      actor_name: 'tf_boss',
    });

    // Operators are not admins: unaffected.
    expect((await login('tf_worker')).body.access_token).toBeTruthy();
    const first = await login('tf_boss');
    expect(first.body).toMatchObject({ two_factor: 'enrol' });
    expect(first.body.message).toContain('Two-factor authentication is required for your account');
    // An enrol challenge is no code challenge.
    expect((await finish(first.body.challenge, '123456')).status).toBe(401);
    const start = await s.request('POST', '/api/v1/login/two-factor/enrol', {
      body: { challenge: first.body.challenge },
    });
    expect(start.status).toBe(200);
    const wrong = await s.request('POST', '/api/v1/login/two-factor/confirm', {
      body: { challenge: first.body.challenge, code: '99999' },
    });
    expect(wrong.status).toBe(401);
    const done = await s.request('POST', '/api/v1/login/two-factor/confirm', {
      body: { challenge: first.body.challenge, code: codeAt(start.body.secret) },
    });
    expect(done.status).toBe(200);
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(done.body.access_token).toBeTruthy();
    tick(30);
    expect((await login('tf_boss')).body.two_factor).toBe('verify');
    const off = await s.request('PUT', path, { token: root, body: { required_for_admins: false } });
    expect(off.body).toEqual({ required_for_admins: false });

    // The superadmin requires it of the superadmins on the plain path.
    const landlord = '/api/v1/two-factor-requirement';
    expect((await s.request('PUT', landlord, { token: root, body: { required_for_admins: true } })).status).toBe(200);
    const rootLogin = await s.request('POST', '/api/v1/login', { body: ADMIN });
    expect(rootLogin.body).toMatchObject({ two_factor: 'enrol', logged_in_as: ADMIN.name });
    expect((await s.request('PUT', landlord, { token: root, body: { required_for_admins: false } })).status).toBe(200);
    expect((await s.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token).toBeTruthy();
  });

  it("lets an admin reset another account's second factor (audited); another entity's admin cannot", async () => {
    const acmeBoss = await createAccount(s, root, { name: 'tf_acme_boss', entity: 'acme', subtype: 'admin' });
    const betaBoss = await createAccount(s, root, { name: 'tf_beta_boss', entity: 'beta', subtype: 'admin' });
    const op = await createAccount(s, root, { name: 'tf_lost', entity: 'acme', subtype: 'operator' });
    await enrol(op.access_token);
    const reset = (token: string, path: string) => s.request('DELETE', path, { token });
    // Another entity's account is answered as a missing one, on either path.
    expect((await reset(betaBoss.access_token, '/api/v1/tenant/acme/account/tf_lost/two-factor')).status).toBe(404);
    expect((await reset(betaBoss.access_token, '/api/v1/tenant/beta/account/tf_lost/two-factor')).status).toBe(404);
    expect((await reset(op.access_token, '/api/v1/tenant/acme/account/tf_lost/two-factor')).status).toBe(403);
    expect((await login('tf_lost')).body.two_factor).toBe('verify');

    expect((await reset(acmeBoss.access_token, '/api/v1/tenant/acme/account/tf_lost/two-factor')).status).toBe(204);
    expect((await login('tf_lost')).body.access_token).toBeTruthy();
    const [entry] = await entriesOf(s, 'account.two_factor_reset');
    expect(entry).toMatchObject({
      entity: 'acme',
      actor_name: 'tf_acme_boss',
      target_name: 'tf_lost',
      outcome: 'success',
    });
    expect((await reset(acmeBoss.access_token, '/api/v1/tenant/acme/account/tf_lost/two-factor')).status).toBe(404);
  });

  it('validates the second step: clear 400s, never 500', async () => {
    expect((await s.request('POST', '/api/v1/login/two-factor', { body: { code: '123456' } })).status).toBe(400);
    expect((await s.request('POST', '/api/v1/login/two-factor', { body: { challenge: 'x', code: '' } })).status).toBe(
      400,
    );
    expect(
      (await s.request('POST', '/api/v1/login/two-factor', { body: { challenge: 'nope', code: '123456' } })).status,
    ).toBe(401);
  });
});
