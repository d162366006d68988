import { describe, expect, it } from 'vitest';
import {
  isAccessClaims,
  isCurrentAccountResponse,
  isErrorInfo,
  isLoginResponse,
  isRefreshResponse,
  loginFieldErrors,
} from './guards.ts';
import { AccountResponseSchema } from './schemas/account.ts';
import { ErrorInfoSchema } from './schemas/error.ts';
import {
  AccessClaimsSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  RefreshResponseSchema,
} from './schemas/session.ts';

// Each guard must say yes exactly where its zod schema does.
const account = {
  name: 'a',
  email: 'a@x.test',
  subtype: 'admin',
  entity: 'acme',
  access: ['all'],
  created_at: 't',
  updated_at: 't',
};
const claims = {
  sub: 'a',
  entity: null,
  subtype: 'sadmin',
  permissions: ['all'],
  typ: 'access',
  iat: 1,
  exp: 2,
  fam: 'f',
};
const cases: [string, (v: unknown) => boolean, { safeParse(v: unknown): { success: boolean } }, unknown[]][] = [
  [
    'error envelope',
    isErrorInfo,
    ErrorInfoSchema,
    [
      { errorInfo: { code: 400, userMessage: 'u', developerMessage: 'd' } },
      { errorInfo: { code: 400, userMessage: 'u', developerMessage: 'd', details: { name: ['x'] } } },
      { errorInfo: { code: 400, userMessage: 'u', developerMessage: 'd', details: { name: 'x' } } },
      { errorInfo: { code: 1.5, userMessage: 'u', developerMessage: 'd' } },
      { errorInfo: { code: 400, userMessage: 'u' } },
      { error: 'x' },
      null,
      [],
    ],
  ],
  [
    'refresh answer',
    isRefreshResponse,
    RefreshResponseSchema,
    [{ access_token: 'a', refresh_token: 'r' }, { access_token: 'a' }, { access_token: 1, refresh_token: 'r' }, 'x'],
  ],
  [
    'login answer',
    isLoginResponse,
    LoginResponseSchema,
    [
      { access_token: 'a', refresh_token: 'r', logged_in_as: 'n', entity: 'landlord' },
      { access_token: 'a', refresh_token: 'r', logged_in_as: 'n', entity: null },
      { access_token: 'a', refresh_token: 'r', entity: 'e' },
      { access_token: 'a', refresh_token: 'r', logged_in_as: 'n', entity: 5 },
    ],
  ],
  [
    'access claims',
    isAccessClaims,
    AccessClaimsSchema,
    [
      claims,
      { ...claims, fam: undefined },
      { ...claims, typ: 'refresh' },
      { ...claims, subtype: 'king' },
      { ...claims, exp: '2' },
      { ...claims, permissions: [1] },
    ],
  ],
  [
    'current account',
    isCurrentAccountResponse,
    AccountResponseSchema,
    [
      { data: { ...account, _entity: { name: 'acme', description: '' } } },
      { data: { ...account, _entity: null } },
      { data: { ...account } },
      { data: { ...account, _entity: null, access: 'all' } },
      { data: { ...account, _entity: null, subtype: 'root' } },
      { data: null },
    ],
  ],
];

describe('zod-free guards agree with the zod schemas', () => {
  for (const [name, guard, schema, samples] of cases) {
    it.each(samples.map((s, i) => [i, s] as const))(`${name} #%d`, (_i, sample) => {
      expect(guard(sample)).toBe(schema.safeParse(sample).success);
    });
  }
});

describe('login field rules agree with the login schema', () => {
  it.each([
    ['admin', 'secret1'],
    ['', 'secret1'],
    ['  ', ''],
    ['admin', '12345'],
    ['admin', ''],
    ['x'.repeat(65), 'secret1'],
  ])('%j / %j', (name, password) => {
    const parsed = LoginRequestSchema.safeParse({ name, password });
    const fromZod = Object.fromEntries((parsed.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
    expect(loginFieldErrors(name, password)).toEqual(fromZod);
  });
});
