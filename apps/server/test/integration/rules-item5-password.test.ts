import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_POLICY_MESSAGES } from '@fleet/shared/password-policy';
import type { Db } from '../../src/db/client.ts';
import { accounts } from '../../src/db/schema.ts';
import { bootstrapAdmin } from '../../src/domain/account/bootstrap-admin.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * The password policy (issue 22 item 5, OWASP ASVS v5's breached-password rule) where a password
 * is set: account create, password change and ADMIN_PASSWORD at bootstrap; never at sign-in.
 */

let s: TestServer;
let root = '';
let acme = '';
const WEAK: Array<[string, string]> = [
  ['123456', PASSWORD_POLICY_MESSAGES.common],
  ['password', PASSWORD_POLICY_MESSAGES.common],
  ['Qwerty123', PASSWORD_POLICY_MESSAGES.common],
  ['aaaaaaaa', PASSWORD_POLICY_MESSAGES.repeated],
  ['      ', PASSWORD_POLICY_MESSAGES.blank],
];

const call = (method: string, path: string, body: unknown, token = root) => s.request(method, path, { token, body });
const createAccount = (name: string, password: string) =>
  call('POST', `/api/v1/tenant/${acme}/account`, {
    document: { name, email: `${name}@example.com`, password, subtype: 'developer' },
  });

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities());
});
afterAll(async () => {
  await s?.close();
});

describe('the password policy', () => {
  it('refuses a common or trivial password when an account is created, naming the field', async () => {
    for (const [password, message] of WEAK) {
      const res = await createAccount(`weak_${acme}`, password);
      expect(res.status, password).toBe(400);
      expect(res.body.errorInfo.details).toEqual({ 'document.password': [message] });
    }
    // The spec's minimum and its message come first.
    const short = await createAccount(`weak_${acme}`, '12345');
    expect(short.body.errorInfo.details).toEqual({
      'document.password': ['The password must be at least 6 characters'],
    });
    expect((await createAccount(`good_${acme}`, 'Fleet-Console-77')).status).toBe(201);
  });

  it('refuses one when a password is changed, by the account itself or an admin', async () => {
    const own = (await signIn(s, `good_${acme}`, 'Fleet-Console-77')).access_token;
    for (const token of [own, root]) {
      for (const [password, message] of WEAK) {
        const res = await call(
          'PUT',
          `/api/v1/tenant/${acme}/account/good_${acme}`,
          { operator: { $set: { password } } },
          token,
        );
        expect(res.status, password).toBe(400);
        expect(res.body.errorInfo.details).toEqual({ 'operator.$set.password': [message] });
      }
    }
    const changed = await call(
      'PUT',
      `/api/v1/tenant/${acme}/account/good_${acme}`,
      { operator: { $set: { password: 'Fleet-Console-78' } } },
      own,
    );
    expect(changed.status, changed.text).toBe(200);
    await signIn(s, `good_${acme}`, 'Fleet-Console-78');
  });

  it('does not stop an account whose older password it would refuse from signing in', async () => {
    await s.app.db.insert(accounts).values({
      name: `old_${acme}`,
      email: 'old@example.com',
      password_hash: await hashPassword('123456'),
      subtype: 'developer',
      entity: acme,
      access: [],
    });
    const res = await s.request('POST', '/api/v1/login', { body: { name: `old_${acme}`, password: '123456' } });
    expect(res.status, res.text).toBe(200);
  });

  it('holds ADMIN_PASSWORD to it when the superadmin is created, and only then', async () => {
    // With accounts in the database nothing is created: an older ADMIN_PASSWORD does not stop a start.
    await expect(bootstrapAdmin(s.app.db, { username: 'boot', password: 'password' })).resolves.toEqual({
      created: false,
    });
    // On an empty database (a transaction that is rolled back) it stops the start with the message.
    const rollback = new Error('rollback');
    await expect(
      s.app.db.transaction(async (tx) => {
        await tx.delete(accounts);
        const db = tx as unknown as Db;
        await expect(bootstrapAdmin(db, { username: 'boot', password: 'password' })).rejects.toThrow(
          `Invalid configuration: ADMIN_PASSWORD: ${PASSWORD_POLICY_MESSAGES.common}`,
        );
        await expect(bootstrapAdmin(db, { username: 'boot', password: 'Fleet-Console-79' })).resolves.toEqual({
          created: true,
        });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(
      (await s.request('POST', '/api/v1/login', { body: { name: 'boot', password: 'Fleet-Console-79' } })).status,
    ).toBe(401);
  });
});
