import { describe, expect, it } from 'vitest';
import { LoginRequestSchema, MESSAGES, apiName } from './validation.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('login validation (core §5)', () => {
  it('accepts a username and a password of at least 6 characters', () => {
    expect(LoginRequestSchema.safeParse({ name: 'admin', password: '123456' }).success).toBe(true);
  });

  it('requires the username', () => {
    expect(messages(LoginRequestSchema.safeParse({ name: '', password: '123456' }))).toEqual({
      name: MESSAGES.required,
    });
    expect(messages(LoginRequestSchema.safeParse({ name: '   ', password: '123456' }))).toEqual({
      name: MESSAGES.required,
    });
    expect(messages(LoginRequestSchema.safeParse({ password: '123456' }))).toEqual({ name: MESSAGES.required });
  });

  it('requires the password, then a minimum of 6 characters', () => {
    expect(messages(LoginRequestSchema.safeParse({ name: 'a', password: '' }))).toEqual({
      password: MESSAGES.required,
    });
    expect(messages(LoginRequestSchema.safeParse({ name: 'a', password: '12345' }))).toEqual({
      password: MESSAGES.passwordMin,
    });
  });

  it('refuses values that are not strings', () => {
    const r = LoginRequestSchema.safeParse({ name: 5, password: { $gt: '' } });
    expect(messages(r)).toEqual({ name: MESSAGES.required, password: MESSAGES.required });
  });
});

describe('api-name format', () => {
  it.each(['admin', 'Site_01', '_x', 'ABC123'])('accepts %s', (v) => {
    expect(apiName().safeParse(v).success).toBe(true);
  });
  it.each(['with space', 'dash-name', 'dot.name', 'ümlaut', 'semi;colon'])('refuses %s with the spec message', (v) => {
    expect(messages(apiName().safeParse(v))).toEqual({ '': MESSAGES.apiName });
  });
  it('uses the spec text word for word', () => {
    expect(MESSAGES.apiName).toBe('The field may contain alpha-numeric characters as well as underscores');
  });
});
