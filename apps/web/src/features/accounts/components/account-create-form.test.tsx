// @vitest-environment happy-dom
import { MESSAGES } from '@fleet/shared/validation';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fill, renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { AccountCreateForm } from './account-create-form.tsx';
import { ENTITY_TYPES, LANDLORD_CREATE_TYPES } from './subtypes.ts';

const ENTITIES = [
  { name: 'acme', description: 'Acme Ltd' },
  { name: 'globex', description: '' },
];

function renderForm(landlord: boolean) {
  const onCreated = vi.fn();
  const form = landlord ? (
    <AccountCreateForm
      landlord
      typeOptions={LANDLORD_CREATE_TYPES}
      defaultSubtype="admin"
      entities={ENTITIES}
      onCreated={onCreated}
      onCancel={() => {}}
    />
  ) : (
    <AccountCreateForm
      landlord={false}
      typeOptions={ENTITY_TYPES}
      defaultSubtype="developer"
      onCreated={onCreated}
      onCancel={() => {}}
    />
  );
  return { onCreated, ...renderUi(form) };
}

const field = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

describe('AccountCreateForm (core §2, §5)', () => {
  it("shows the spec's messages under each field and sends nothing", async () => {
    signInAs();
    const calls = stubApi();
    const { user } = renderForm(false);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(4);
    await fill(user, /^Username/, 'ops admin');
    await fill(user, /^E-mail/, 'ops@');
    await fill(user, /^Password \*?$/, 'abc');
    await fill(user, /^Password Confirmation/, 'abd');
    expect(screen.getByText(MESSAGES.apiName)).toBeTruthy();
    expect(screen.getByText(MESSAGES.email)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordMin)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordConfirm)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(calls).toEqual([]);
  });

  it("posts what was typed to the entity's accounts, with the chosen type and no confirmation", async () => {
    signInAs();
    const calls = stubApi(() => ({ body: { status: 'Account created' } }));
    const { user, onCreated } = renderForm(false);
    await fill(user, /^Username/, 'ops_1');
    await fill(user, /^E-mail/, 'ops@acme.test');
    await fill(user, /^Password \*?$/, 'k8#Lq2vZ');
    await fill(user, /^Password Confirmation/, 'k8#Lq2vZ');
    await user.click(field(/^Account Type/));
    await user.click(screen.getByRole('option', { name: 'Operator' }));
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/v1/tenant/acme/account',
        body: { document: { name: 'ops_1', email: 'ops@acme.test', password: 'k8#Lq2vZ', subtype: 'operator' } },
      },
    ]);
  });

  it("the landlord's form sends the entity and the access ticked to the plain path", async () => {
    signInAs({ subtype: 'sadmin', entity: 'landlord' });
    const calls = stubApi(() => ({ body: { status: 'Account created' } }));
    const { user, onCreated } = renderForm(true);
    expect((field(/^Entity/) as HTMLInputElement).value).toBe('acme');
    await user.click(field(/^Entity/));
    await user.click(screen.getByRole('option', { name: 'globex' }));
    await user.click(screen.getByRole('checkbox', { name: /All Access/ }));
    await user.click(screen.getByRole('checkbox', { name: 'Dataview_read' }));
    expect((screen.getByRole('checkbox', { name: /All Access/ }) as HTMLInputElement).checked).toBe(false);
    await fill(user, /^Username/, 'g_admin');
    await fill(user, /^E-mail/, 'admin@globex.test');
    await fill(user, /^Password \*?$/, 'k8#Lq2vZ');
    await fill(user, /^Password Confirmation/, 'k8#Lq2vZ');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      [
        'POST',
        '/api/v1/account',
        {
          document: {
            name: 'g_admin',
            email: 'admin@globex.test',
            password: 'k8#Lq2vZ',
            subtype: 'admin',
            entity: 'globex',
            access: ['Dataview_read'],
          },
        },
      ],
    ]);
  });

  it('a superadmin is asked for no entity and no access', async () => {
    const { user } = renderForm(true);
    expect(screen.getByText('Access Permissions')).toBeTruthy();
    await user.click(field(/^Account Type/));
    await user.click(screen.getByRole('option', { name: 'Superadmin' }));
    expect(screen.queryByLabelText(/^Entity/)).toBeNull();
    expect(screen.queryByText('Access Permissions')).toBeNull();
  });
});
