import { describe, expect, it } from 'vitest';
import { buildAccountCreate, buildAccountUpdate, type AccountCreateValues } from './account-payload.ts';

const VALUES: AccountCreateValues = {
  name: ' ops_admin ',
  email: ' ops@acme.test ',
  password: 'secret-1',
  confirmation: 'secret-1',
  subtype: 'admin',
  entity: 'acme',
  access: ['all'],
};

describe('buildAccountCreate', () => {
  it('sends the trimmed fields, the entity and, on the landlord form, the access list', () => {
    expect(buildAccountCreate(VALUES, true)).toEqual({
      name: 'ops_admin',
      email: 'ops@acme.test',
      password: 'secret-1',
      subtype: 'admin',
      entity: 'acme',
      access: ['all'],
    });
  });

  it('never sends the confirmation, and no access list from the entity form', () => {
    const document = buildAccountCreate({ ...VALUES, subtype: 'developer', entity: '' }, false);
    expect(document).toEqual({ name: 'ops_admin', email: 'ops@acme.test', password: 'secret-1', subtype: 'developer' });
  });

  it('drops an empty password and an empty entity', () => {
    const document = buildAccountCreate({ ...VALUES, password: '', entity: '  ' }, true);
    expect(document).not.toHaveProperty('password');
    expect(document).not.toHaveProperty('entity');
  });

  it('drops the entity (and the access list) when creating a superadmin', () => {
    const document = buildAccountCreate({ ...VALUES, subtype: 'sadmin' }, true);
    expect(document).not.toHaveProperty('entity');
    expect(document).not.toHaveProperty('access');
    expect(document.subtype).toBe('sadmin');
  });
});

describe('buildAccountUpdate', () => {
  const original = { name: 'dev_1' };

  it('drops the name when unchanged', () => {
    expect(buildAccountUpdate(original, { name: 'dev_1', email: 'a@b.test', subtype: 'operator' })).toEqual({
      email: 'a@b.test',
      subtype: 'operator',
    });
  });

  it('sends a changed name', () => {
    expect(buildAccountUpdate(original, { name: ' dev_2 ', email: 'a@b.test' })).toEqual({
      name: 'dev_2',
      email: 'a@b.test',
    });
  });

  it('drops an empty password or entity, and sends filled ones', () => {
    expect(buildAccountUpdate(original, { name: 'dev_1', email: 'a@b.test', password: '', entity: '' })).toEqual({
      email: 'a@b.test',
    });
    expect(
      buildAccountUpdate(original, { name: 'dev_1', email: 'a@b.test', password: 'secret-2', entity: 'acme' }),
    ).toEqual({ email: 'a@b.test', password: 'secret-2', entity: 'acme' });
  });
});
