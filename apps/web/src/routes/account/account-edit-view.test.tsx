// @vitest-environment happy-dom
import type { Account } from '@fleet/shared/schemas/account';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ConfirmDeleteProvider } from '@/components/ui/confirm-delete.tsx';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { AccountEditView, READ_ONLY_ACCOUNT_TEXT } from './account-edit-view.tsx';

const BOSS: Account = {
  name: 'boss',
  email: 'boss@acme.test',
  subtype: 'admin',
  entity: 'acme',
  access: ['all'],
  created_at: '',
  updated_at: '',
};

function openAccount(account: Account) {
  const calls = stubApi((call) =>
    call.url.endsWith(`/account/${account.name}`) ? { body: { data: { ...account, _entity: null } } } : {},
  );
  const rendered = renderUi(
    <ConfirmDeleteProvider>
      <Routes>
        <Route path="/account/:name" element={<AccountEditView landlord={false} />} />
      </Routes>
    </ConfirmDeleteProvider>,
    { route: `/account/${account.name}` },
  );
  return { calls, ...rendered };
}

describe('the account screen (core §2)', () => {
  it('says what it is to a viewer who may read the account but not change it, with no control that changes it', async () => {
    signInAs({ sub: 'olga', subtype: 'operator', permissions: [] });
    openAccount(BOSS);
    expect(await screen.findByRole('heading', { name: 'Account boss' })).toBeTruthy();
    expect(screen.getByText(READ_ONLY_ACCOUNT_TEXT)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Edit account' })).toBeNull();
    expect(document.title).toMatch(/^Account boss/);
    for (const name of ['Save', 'Change Password', 'Cancel']) expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
  });

  it('stays "Edit account" for an admin with all access editing a developer', async () => {
    signInAs({ sub: 'alice', subtype: 'admin', permissions: ['all'] });
    openAccount({ ...BOSS, name: 'dev_one', subtype: 'developer', access: [] });
    expect(await screen.findByRole('heading', { name: 'Edit account' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
  });
});
