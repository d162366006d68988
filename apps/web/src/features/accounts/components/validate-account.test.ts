import { MESSAGES } from '@fleet/shared/validation';
import { PASSWORD_POLICY_MESSAGES } from '@fleet/shared/password-policy';
import { describe, expect, it } from 'vitest';
import type { AccountCreateValues } from './account-payload.ts';
import { validateAccountCreate, validateAccountEdit, validatePasswordChange } from './validate-account.ts';

const EMPTY: AccountCreateValues = {
  name: '',
  email: '',
  password: '',
  confirmation: '',
  subtype: 'admin',
  entity: '',
  access: [],
};

describe('validateAccountCreate', () => {
  it('requires every field, the entity on the landlord form only', () => {
    expect(validateAccountCreate(EMPTY, true)).toEqual({
      name: MESSAGES.required,
      email: MESSAGES.required,
      password: MESSAGES.required,
      confirmation: MESSAGES.required,
      entity: MESSAGES.required,
    });
    expect(validateAccountCreate(EMPTY, false).entity).toBeUndefined();
  });

  it('needs no entity for a superadmin', () => {
    expect(validateAccountCreate({ ...EMPTY, subtype: 'sadmin' }, true).entity).toBeUndefined();
  });

  it('checks the formats and the confirmation', () => {
    const errors = validateAccountCreate(
      { ...EMPTY, name: 'bad name', email: 'nope', password: '12345', confirmation: '123456' },
      false,
    );
    expect(errors).toEqual({
      name: MESSAGES.apiName,
      email: MESSAGES.email,
      password: MESSAGES.passwordMin,
      confirmation: MESSAGES.passwordConfirm,
      entity: undefined,
    });
  });

  it('passes a complete form', () => {
    const values = { ...EMPTY, name: 'dev_1', email: 'dev@acme.test', password: 's3cret-1', confirmation: 's3cret-1' };
    expect(Object.values(validateAccountCreate({ ...values, entity: 'acme' }, true)).filter(Boolean)).toEqual([]);
  });

  it('refuses a common password, one character repeated or only spaces, as the server does', () => {
    for (const [password, message] of [
      ['123456', PASSWORD_POLICY_MESSAGES.common],
      ['aaaaaaa', PASSWORD_POLICY_MESSAGES.repeated],
      ['      ', PASSWORD_POLICY_MESSAGES.blank],
    ] as const) {
      expect(validateAccountCreate({ ...EMPTY, password, confirmation: password }, false).password).toBe(message);
      expect(validatePasswordChange({ password, confirmation: password }).password).toBe(message);
    }
  });
});

describe('validateAccountEdit and validatePasswordChange', () => {
  it('check username and e-mail', () => {
    expect(validateAccountEdit({ name: '', email: 'x' })).toEqual({ name: MESSAGES.required, email: MESSAGES.email });
  });

  it('require a confirmed password of at least 6', () => {
    expect(validatePasswordChange({ password: '', confirmation: '' })).toEqual({
      password: MESSAGES.required,
      confirmation: MESSAGES.required,
    });
    expect(validatePasswordChange({ password: 'secret', confirmation: 'secreT' }).confirmation).toBe(
      MESSAGES.passwordConfirm,
    );
  });
});
