import { describe, expect, it } from 'vitest';
import { tokenPaths } from './token-paths.ts';

describe('tokenPaths', () => {
  it('uses the tenant prefix for entity users', () => {
    const paths = tokenPaths({ name: 'dev_1', entity: 'acme' }, { landlord: false, entity: 'acme' });
    expect(paths.generate).toBe('tenant/acme/account/dev_1/permanent-token');
    expect(paths.list).toBe('tenant/acme/account/dev_1/tokens');
    expect(paths.revoke('abc')).toBe('tenant/acme/account/dev_1/token/abc');
  });

  it("uses the plain paths for the landlord's own and other superadmins' tokens", () => {
    const paths = tokenPaths({ name: 'admin', entity: null }, { landlord: true });
    expect(paths.generate).toBe('account/admin/permanent-token');
    expect(paths.list).toBe('account/admin/tokens');
    expect(paths.revoke('abc')).toBe('account/admin/token/abc');
  });

  it("generates an entity account's token through tenant/{entity}/{account} for the landlord", () => {
    const paths = tokenPaths({ name: 'ops', entity: 'acme' }, { landlord: true });
    expect(paths.generate).toBe('tenant/acme/ops/permanent-token');
    expect(paths.list).toBe('account/ops/tokens');
  });
});
