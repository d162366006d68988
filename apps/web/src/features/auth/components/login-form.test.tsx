// @vitest-environment happy-dom
import { MESSAGES } from '@fleet/shared/validation';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAccessToken } from '@/lib/session/test-tokens.ts';
import { renderUi, stubApi, type ApiCall } from '@/test/render.tsx';
import { WRONG_PASSWORD } from './login-error-message.ts';
import { LoginForm } from './login-form.tsx';

const account = {
  name: 'alice',
  email: 'alice@example.com',
  subtype: 'admin',
  entity: 'acme',
  access: ['all'],
  created_at: '',
  updated_at: '',
  _entity: { name: 'acme', description: '' },
};

/** The server's side of a sign-in: the login answer, then alice's account. */
function server(call: ApiCall) {
  if (call.url === '/api/v1/login') {
    const access_token = makeAccessToken(Date.now(), 600_000);
    return { body: { access_token, refresh_token: 'r1', logged_in_as: 'alice', entity: 'acme' } };
  }
  return { body: { data: account } };
}

function renderForm() {
  const onSignedIn = vi.fn();
  return { onSignedIn, ...renderUi(<LoginForm onSignedIn={onSignedIn} />) };
}

describe('LoginForm (core §5, §8)', () => {
  it('asks for both fields and a password of at least 6 characters, sending nothing', async () => {
    const calls = stubApi(server);
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(2);
    await user.type(screen.getByRole('textbox', { name: /Username/ }), 'alice');
    await user.type(screen.getByLabelText(/Password/), '12345');
    expect(screen.getByText(MESSAGES.passwordMin)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.required)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(calls).toEqual([]);
  });

  it('signs in with what was typed (the username trimmed) and loads the account', async () => {
    const calls = stubApi(server);
    const { user, onSignedIn } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /Username/ }), ' alice ');
    await user.type(screen.getByLabelText(/Password/), 'secret1{Enter}');
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledOnce());
    expect(onSignedIn.mock.calls[0]?.[0]).toMatchObject({ status: 'signed-in', username: 'alice', entity: 'acme' });
    expect(calls.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['POST', '/api/v1/login', { name: 'alice', password: 'secret1' }],
      ['GET', '/api/v1/tenant/acme/account/alice', undefined],
    ]);
  });

  it('says Wrong password when the server refuses, and stays on the form', async () => {
    const errorInfo = { code: 'unauthorized', userMessage: 'Invalid credentials', developerMessage: '' };
    stubApi(() => ({ status: 401, body: { errorInfo } }));
    const { user, onSignedIn } = renderForm();
    await user.type(screen.getByRole('textbox', { name: /Username/ }), 'alice');
    await user.type(screen.getByLabelText(/Password/), 'wrong-one');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(WRONG_PASSWORD);
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});
