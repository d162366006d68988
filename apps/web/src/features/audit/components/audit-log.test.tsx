// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '@fleet/shared/schemas/audit';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { AuditLog } from './audit-log.tsx';

const NOW = Date.parse('2026-11-25T12:00:00Z');

const entry = (id: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: String(id),
  at: '2026-11-25T10:00:00Z',
  entity: 'acme',
  actor: { kind: 'account', id: 'alice', name: 'alice', account: null },
  address: '10.0.0.7',
  user_agent: 'Firefox',
  action: 'device.update',
  target: { type: 'device', name: `dev_${id}` },
  outcome: 'success',
  reason: null,
  changes: { before: { group: 'Lobby_Left' }, after: { group: 'Lobby_Right' } },
  details: null,
  ...over,
});

const lastList = (calls: { url: string }[]) =>
  new URL(calls.filter((c) => !c.url.includes('export')).at(-1)!.url, 'http://x');
const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });

function renderLog(answer: Parameters<typeof stubApi>[0], landlord = false) {
  signInAs(landlord ? { subtype: 'sadmin', entity: 'landlord' } : { permissions: ['all'] });
  const calls = stubApi(answer);
  return { calls, ...renderUi(<AuditLog landlord={landlord} entities={['acme', 'globex']} now={() => NOW} />) };
}

describe('the audit log screen', () => {
  it('shows the entries with their change, and sends every filter to the API, back on page 1', async () => {
    const { calls, user } = renderLog(() => ({ body: { data: [entry(1)], total: 120, total_is_lower_bound: false } }));
    expect(await screen.findByText('group: Lobby_Left → Lobby_Right')).toBeTruthy();
    expect(lastList(calls).pathname).toBe('/api/v1/tenant/acme/audit');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await vi.waitFor(() => expect(lastList(calls).searchParams.get('offset')).toBe('50'));

    await user.click(field(/^Action/));
    await user.click(screen.getByRole('option', { name: 'device.delete' }));
    await user.click(field(/^Outcome/));
    await user.click(screen.getByRole('option', { name: 'Failure' }));
    await user.click(field(/^Time range/));
    await user.click(screen.getByRole('option', { name: 'Last 7 days' }));
    await user.click(field(/^Target type/));
    await user.click(screen.getByRole('option', { name: 'device' }));
    await user.type(field(/^Target name/), 'dev_9{Enter}');
    await user.type(field(/^Search/), 'lobby{Enter}');
    await vi.waitFor(() =>
      expect(Object.fromEntries(lastList(calls).searchParams)).toEqual({
        action: 'device.delete',
        outcome: 'failure',
        from: '2026-11-18T12:00:00.000Z',
        target_type: 'device',
        target_name: 'dev_9',
        search: 'lobby',
        limit: '50',
        offset: '0',
      }),
    );
  });

  it("the superadmin's log reads every entity's and narrows to the entity chosen", async () => {
    const { calls, user } = renderLog(
      () => ({ body: { data: [entry(1, { entity: null })], total: 1, total_is_lower_bound: false } }),
      true,
    );
    expect(await screen.findByText('Landlord')).toBeTruthy();
    expect(lastList(calls).pathname).toBe('/api/v1/audit');
    await user.click(field(/^Entity/));
    await user.click(screen.getByRole('option', { name: 'globex' }));
    await vi.waitFor(() => expect(lastList(calls).searchParams.get('entity')).toBe('globex'));
  });

  it('says what will appear when nothing is recorded, and that the filters match nothing when filtered', async () => {
    const { user } = renderLog(() => ({ body: { data: [], total: 0, total_is_lower_bound: false } }));
    expect(await screen.findByText('Nothing recorded yet')).toBeTruthy();
    expect(screen.getByText(/Every sign-in, change and command will appear here/)).toBeTruthy();
    await user.type(field(/^Search/), 'nobody{Enter}');
    expect(await screen.findByText('No entries match these filters')).toBeTruthy();
  });

  it('says the log could not be loaded, and Try again asks again', async () => {
    let refuse = true;
    const { calls, user } = renderLog(() =>
      refuse
        ? { status: 500, body: { userMessage: 'Boom' } }
        : { body: { data: [entry(2)], total: 1, total_is_lower_bound: false } },
    );
    expect(await screen.findByText('The audit log could not be loaded.')).toBeTruthy();
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('dev_2')).toBeTruthy();
    expect(calls.length).toBe(2);
  });

  it('shows a capped total as "1,050+" and still pages past it', async () => {
    // The server counts from the page's first row to limit + 1,000 past it: page 21 (offset 1,000) answers 2,050+.
    const { calls, user } = renderLog(({ url }) => {
      const offset = Number(new URL(url, 'http://x').searchParams.get('offset'));
      return { body: { data: [entry(offset + 1)], total: offset + 1_050, total_is_lower_bound: true } };
    });
    expect(await screen.findByText('1–50 of 1,050+ entries')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 21' }));
    await vi.waitFor(() => expect(lastList(calls).searchParams.get('offset')).toBe('1000'));
    expect(await screen.findByText('1001–1050 of 2,050+ entries')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await vi.waitFor(() => expect(lastList(calls).searchParams.get('offset')).toBe('1050'));
  });

  it('exports the filtered log with the bearer and saves it under the name the server gives', async () => {
    const { calls, user } = renderLog(() => ({ body: { data: [entry(1)], total: 1, total_is_lower_bound: false } }));
    await screen.findByText('dev_1');
    await user.click(field(/^Outcome/));
    await user.click(screen.getByRole('option', { name: 'Success' }));
    const sent: { url: string; auth: string | null }[] = [];
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      if (!String(input).includes('/export'))
        return new Response(JSON.stringify({ data: [entry(1)], total: 1, total_is_lower_bound: false }));
      sent.push({ url: String(input), auth: new Headers(init.headers).get('Authorization') });
      return new Response('id,at\n1,x\n', {
        headers: {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="audit-acme-2026-11-25.csv"',
        },
      });
    });
    URL.createObjectURL = vi.fn(() => 'blob:audit');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await vi.waitFor(() => expect(saved).toEqual(['audit-acme-2026-11-25.csv']));
    click.mockRestore();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/api/v1/tenant/acme/audit/export?outcome=success&format=csv');
    expect(sent[0]!.auth).toMatch(/^Bearer ey/);
    expect(calls.length).toBeGreaterThan(0);
  });
});
