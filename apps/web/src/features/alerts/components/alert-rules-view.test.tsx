// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AlertRule } from '@fleet/shared/schemas/alert';
import { ConfirmDeleteProvider } from '@/components/ui/confirm-delete.tsx';
import { fill, renderUi, signInAs, stubApi, type ApiCall } from '@/test/render.tsx';
import { AlertRulesView } from './alert-rules-view.tsx';

const rule = (over: Partial<AlertRule> = {}): AlertRule => ({
  id: 'r1',
  entity: 'acme',
  name: 'Low battery',
  kind: 'battery_low',
  scope: 'entity',
  scope_name: null,
  threshold: 15,
  start_delay_s: 300,
  clear_delay_s: 60,
  severity: 'warning',
  enabled: true,
  email_to: [],
  webhook: false,
  created_at: '2026-11-27T10:00:00Z',
  updated_at: '2026-11-27T10:00:00Z',
  ...over,
});

function answer(call: ApiCall) {
  if (call.method === 'GET') return { body: { data: [rule()], total: 1 } };
  if (call.method === 'POST')
    return {
      status: 400,
      body: {
        errorInfo: {
          code: 400,
          userMessage: 'Invalid request',
          developerMessage: 'document.threshold',
          details: { 'document.threshold': ['A battery rule needs a level from 0 to 100'] },
        },
      },
    };
  return { body: { status: 'success', data: rule() } };
}

const show = (editable: boolean) =>
  renderUi(
    <ConfirmDeleteProvider>
      <AlertRulesView editable={editable} />
    </ConfirmDeleteProvider>,
  );

describe('the alert rules editor', () => {
  it('lists the rules, creates one with the API’s field error shown at its field, and turns one off', async () => {
    signInAs({ permissions: ['all'] });
    const calls = stubApi(answer);
    const { user } = show(true);
    expect(await screen.findByText('Low battery')).toBeTruthy();
    expect(screen.getByText('300 s / 60 s')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'New rule' }));
    await fill(user, /^Name/, 'Battery critical');
    await user.click(screen.getByRole('button', { name: 'Create rule' }));
    expect(await screen.findByText('A battery rule needs a level from 0 to 100')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/v1/tenant/acme/alert-rules');
    expect(post.body).toMatchObject({
      document: { name: 'Battery critical', kind: 'battery_low', threshold: 15, scope: 'entity', scope_name: null },
    });

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('switch', { name: 'Low battery on' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
        url: '/api/v1/tenant/acme/alert-rules/r1',
        body: { operator: { $set: { enabled: false } } },
      }),
    );
  });

  it('edits every field but the kind, and deletes after the confirmation', async () => {
    signInAs({ permissions: ['all'] });
    const calls = stubApi(answer);
    const { user } = show(true);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    expect(screen.getByLabelText(/^Kind/, { selector: 'input' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!.body as { operator: { $set: Record<string, unknown> } };
    expect(put.operator.$set).not.toHaveProperty('kind');
    expect(put.operator.$set).toMatchObject({ name: 'Low battery', threshold: 15, start_delay_s: 300 });

    await user.click(screen.getByRole('button', { name: 'Delete rule Low battery' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, delete it!' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/r1'))).toBe(true));
  });

  it('shows no edit controls to those who may not change rules', async () => {
    signInAs({ subtype: 'operator', permissions: [] });
    stubApi(answer);
    show(false);
    expect(await screen.findByText('Low battery')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('switch', { name: 'Low battery on' }).hasAttribute('disabled')).toBe(true);
  });
  it('says what is missing when the rules fail to load, and Try again loads them', async () => {
    signInAs({ permissions: ['all'] });
    let gets = 0;
    stubApi((call) => {
      if (call.method === 'GET' && ++gets === 1) return { status: 503, body: {} };
      return call.method === 'GET' ? { body: { data: [], total: 0 } } : answer(call);
    });
    const { user } = show(true);
    expect(await screen.findByText('The rules could not be loaded.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No alert rules')).toBeTruthy();
  });
});
