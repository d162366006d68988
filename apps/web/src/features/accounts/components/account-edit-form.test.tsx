// @vitest-environment happy-dom
import type { Account } from '@fleet/shared/schemas/account';
import { MESSAGES } from '@fleet/shared/validation';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fill, renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { AccountEditForm } from './account-edit-form.tsx';
import { ENTITY_TYPES } from './subtypes.ts';

const BOB: Account = {
  name: 'bob',
  email: 'bob@acme.test',
  subtype: 'developer',
  entity: 'acme',
  access: [],
  created_at: '',
  updated_at: '',
};

function renderForm(ownAccount = false) {
  const onSaved = vi.fn();
  const form = (
    <AccountEditForm
      account={BOB}
      landlord={false}
      typeOptions={ENTITY_TYPES}
      showEntity={false}
      ownAccount={ownAccount}
      onSaved={onSaved}
      onCancel={() => {}}
    />
  );
  return { onSaved, ...renderUi(form) };
}

describe('AccountEditForm (core §2, §5)', () => {
  it('sends the e-mail and type, and the name only when it changed', async () => {
    signInAs();
    const calls = stubApi();
    const { user, onSaved } = renderForm();
    await user.clear(screen.getByLabelText(/^E-mail/));
    await fill(user, /^E-mail/, 'robert@acme.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    await user.clear(screen.getByLabelText(/^Username/));
    await fill(user, /^Username/, 'robert');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2));
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      [
        'PUT',
        '/api/v1/tenant/acme/account/bob',
        { operator: { $set: { email: 'robert@acme.test', subtype: 'developer' } } },
      ],
      [
        'PUT',
        '/api/v1/tenant/acme/account/bob',
        { operator: { $set: { email: 'robert@acme.test', subtype: 'developer', name: 'robert' } } },
      ],
    ]);
  });

  it("shows the spec's messages and sends nothing", async () => {
    const calls = stubApi();
    const { user } = renderForm();
    await user.clear(screen.getByLabelText(/^Username/));
    await fill(user, /^E-mail/, '@');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MESSAGES.required)).toBeTruthy();
    expect(screen.getByText(MESSAGES.email)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('keeps your own username read-only', () => {
    renderForm(true);
    expect(screen.getByLabelText(/^Username/).hasAttribute('readonly')).toBe(true);
  });

  it('changes the password in its dialog, confirmed, and sends only the password', async () => {
    signInAs();
    const calls = stubApi();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Change Password' }));
    await fill(user, /^Password \*?$/, 'k8#Lq2vZ');
    await fill(user, /^Password Confirmation/, 'k8#Lq2vY');
    await user.click(dialog.getByRole('button', { name: 'Change password' }));
    expect(dialog.getByText(MESSAGES.passwordConfirm)).toBeTruthy();
    expect(calls).toEqual([]);
    await user.clear(dialog.getByLabelText(/^Password Confirmation/));
    await fill(user, /^Password Confirmation/, 'k8#Lq2vZ');
    await user.click(dialog.getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([
      { method: 'PUT', url: '/api/v1/tenant/acme/account/bob', body: { operator: { $set: { password: 'k8#Lq2vZ' } } } },
    ]);
  });
});
