import { describe, expect, it } from 'vitest';
import { canManageAccounts, entityRowActions, landlordRowActions, type Viewer } from './row-actions.ts';

const admin: Viewer = { name: 'boss', subtype: 'admin', permissions: ['all'] };

describe('entityRowActions', () => {
  it('lets an all-access admin edit and delete non-admin rows', () => {
    for (const subtype of ['developer', 'operator', 'infra'] as const) {
      expect(entityRowActions({ name: 'someone', subtype }, admin)).toEqual({ edit: true, remove: true });
    }
  });

  it('offers nothing on admin rows, the own row included', () => {
    expect(entityRowActions({ name: 'other_admin', subtype: 'admin' }, admin)).toEqual({ edit: false, remove: false });
    expect(entityRowActions({ name: 'boss', subtype: 'admin' }, admin)).toEqual({ edit: false, remove: false });
  });

  it('offers nothing to an admin without all access, or to any other subtype', () => {
    const limited: Viewer = { ...admin, permissions: ['Site_all', 'Group_all'] };
    const developer: Viewer = { name: 'dev', subtype: 'developer', permissions: ['all'] };
    expect(canManageAccounts(limited)).toBe(false);
    expect(canManageAccounts(developer)).toBe(false);
    expect(entityRowActions({ name: 'x', subtype: 'operator' }, limited)).toEqual({ edit: false, remove: false });
    expect(entityRowActions({ name: 'x', subtype: 'operator' }, developer)).toEqual({ edit: false, remove: false });
  });

  it('never deletes the own row', () => {
    // An admin's own row is an admin row; the rule holds even if the subtype changed under them.
    expect(entityRowActions({ name: 'boss', subtype: 'developer' }, admin)).toEqual({ edit: true, remove: false });
  });
});

describe('the superadmin inside an entity', () => {
  it('manages every row, admin rows included, but never deletes its own', () => {
    const root: Viewer = { name: 'root', subtype: 'sadmin', permissions: [] };
    expect(canManageAccounts(root)).toBe(true);
    for (const subtype of ['admin', 'developer', 'operator', 'infra'] as const) {
      expect(entityRowActions({ name: 'someone', subtype }, root)).toEqual({ edit: true, remove: true });
    }
    expect(entityRowActions({ name: 'root', subtype: 'sadmin' }, root)).toEqual({ edit: true, remove: false });
  });
});

describe('landlordRowActions', () => {
  it('edits every row and deletes every row but the own one', () => {
    expect(landlordRowActions({ name: 'root' }, { name: 'admin' })).toEqual({ edit: true, remove: true });
    expect(landlordRowActions({ name: 'admin' }, { name: 'admin' })).toEqual({ edit: true, remove: false });
  });
});
