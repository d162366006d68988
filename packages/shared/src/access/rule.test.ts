import { describe, expect, it } from 'vitest';
import { accessTo, mayManageAccount, mayReadAllDataviews, type Actor } from './rule.ts';
import { SCREENS, screenAccess } from './screens.ts';

const as = (subtype: string, ...permissions: string[]): Actor => ({ subtype, permissions });
const screen = (actor: Actor, path: string) =>
  screenAccess(
    actor,
    SCREENS.find((s) => s.path === path)!,
  );

describe('the access rule', () => {
  it('lets superadmins, admins and developers change the registry, files and beacons; operators and infra read them', () => {
    for (const area of ['devices', 'files', 'beacons'] as const) {
      expect(['sadmin', 'admin', 'developer', 'operator', 'infra'].map((s) => accessTo(as(s), area))).toEqual([
        'change',
        'change',
        'change',
        'read',
        'read',
      ]);
    }
  });

  it('decides sites and groups by Site_* and Group_* whatever the subtype, all and the landlord everything', () => {
    expect(accessTo(as('operator'), 'sites')).toBe('none');
    expect(accessTo(as('admin'), 'groups')).toBe('none');
    expect(accessTo(as('operator', 'Site_read'), 'sites')).toBe('read');
    expect(accessTo(as('infra', 'Group_all'), 'groups')).toBe('change');
    expect(accessTo(as('developer', 'all'), 'sites')).toBe('change');
    expect(accessTo(as('sadmin'), 'groups')).toBe('change');
  });

  it('lets only Group_all (or all) allocate and return, and nobody read those screens without it', () => {
    expect(accessTo(as('operator', 'Group_read'), 'allocation')).toBe('none');
    expect(accessTo(as('operator', 'Group_all'), 'allocation')).toBe('change');
    expect(screen(as('operator'), '/device/{name}/allocate')).toBe('none');
    expect(screen(as('admin', 'all'), '/device/{name}/deploy')).toBe('change');
  });

  it('lets the entity admin with all access manage accounts and the entity config; others read them', () => {
    expect(accessTo(as('admin', 'all'), 'accounts')).toBe('change');
    expect(accessTo(as('admin', 'Site_all'), 'accounts')).toBe('read');
    expect(accessTo(as('developer', 'all'), 'entityConfig')).toBe('read');
    expect(mayManageAccount(as('admin', 'all'), { subtype: 'operator' })).toBe(true);
    expect(mayManageAccount(as('admin', 'all'), { subtype: 'admin' })).toBe(false);
    expect(mayManageAccount(as('developer', 'all'), { subtype: 'operator' })).toBe(false);
    expect(mayManageAccount(as('sadmin'), { subtype: 'admin' })).toBe(true);
  });

  it('lets the superadmin and admins with all or Dataview_all change dataviews; readers of all need a Dataview_ value', () => {
    expect(accessTo(as('admin', 'Dataview_all'), 'dataviews')).toBe('change');
    expect(accessTo(as('developer', 'all'), 'dataviews')).toBe('read');
    expect(mayReadAllDataviews(as('operator', 'Dataview_read'))).toBe(true);
    expect(mayReadAllDataviews(as('developer'))).toBe(false);
  });

  it('keeps the landlord screens for the superadmin, create screens for those who change, and nothing for no one', () => {
    expect(screen(as('admin', 'all'), '/saccounts')).toBe('none');
    expect(screen(as('sadmin'), '/entity/new')).toBe('change');
    expect(screen(as('operator'), '/site/new')).toBe('none');
    expect(screen(as('operator'), '/device/{name}')).toBe('read');
    expect(screen(as('operator'), '/settings')).toBe('change');
    expect(accessTo(null, 'settings')).toBe('none');
  });
});

describe('the audit log area', () => {
  it('is read by superadmins and entity admins with all access, by nobody else, and changed by nobody', () => {
    const profiles = [as('sadmin'), as('admin', 'all'), as('admin'), as('developer', 'all'), as('operator', 'all')];
    expect(profiles.map((a) => accessTo(a, 'audit'))).toEqual(['read', 'read', 'none', 'none', 'none']);
    expect(screen(as('admin', 'all'), '/audit')).toBe('read');
    expect(screen(as('developer'), '/audit')).toBe('none');
  });
});
