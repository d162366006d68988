// @vitest-environment happy-dom
import { MESSAGES } from '@fleet/shared/validation';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { EntityForm } from './entity-form.tsx';

function renderForm() {
  const onCreated = vi.fn();
  const onCancel = vi.fn();
  return { onCreated, onCancel, ...renderUi(<EntityForm onCreated={onCreated} onCancel={onCancel} />) };
}

describe('EntityForm', () => {
  it("shows the spec's messages on submit and sends nothing until they are fixed", async () => {
    signInAs({ subtype: 'sadmin', entity: 'landlord' });
    const calls = stubApi();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create entity' }));
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'acme corp');
    expect(screen.getByText(MESSAGES.apiName)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create entity' }));
    expect(calls).toEqual([]);
  });

  it('posts what was typed, trimmed, and reports the creation', async () => {
    signInAs({ subtype: 'sadmin', entity: 'landlord' });
    const entity = { name: 'acme', description: 'Acme Ltd', license_tier: 'basic', created_at: '', updated_at: '' };
    const calls = stubApi(() => ({ body: { status: 'Entity created', data: entity } }));
    const { user, onCreated } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'acme');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), ' Acme Ltd ');
    await user.click(screen.getByRole('button', { name: 'Create entity' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledOnce());
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/v1/tenant',
        body: { document: { name: { name: 'acme', description: 'Acme Ltd' } } },
      },
    ]);
  });

  it('Cancel leaves without sending', async () => {
    const calls = stubApi();
    const { user, onCancel } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(calls).toEqual([]);
  });
});
