// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Selection } from '@fleet/shared/schemas/device-view';
import { renderUi, signInAs, stubApi, type ApiCall } from '@/test/render.tsx';
import { MatchingChoiceDialog } from './matching-choice-dialog.tsx';

const SEL = '00000000-0000-4000-8000-000000000001';
const FW = '6f1c2b1e-8a4b-4c1e-9d55-0a1b2c3d4e5f';
const sel: Selection = {
  id: SEL,
  total: 8,
  query: 'battery=Low',
  action: null,
  state: 'counted',
  done: 0,
  expires_at: '2026-11-28T07:00:00.000Z',
};
const SITE_FW = '7a2d3c4e-9b5c-4d2f-8e66-1b2c3d4e5f60';
const choices = {
  firmware: [
    { id: FW, entity: 'acme', level: 'entity', place: 'acme', device_type: 'CC2', version: '2.0.0' },
    { id: SITE_FW, entity: 'acme', level: 'site', place: 'North', device_type: 'CC2', version: '2.1.0' },
  ],
  groups: [{ id: '8b3e4f5a-0c6d-4e3a-9f77-2c3d4e5f6071', entity: 'acme', name: 'Ward 1' }],
};
const plan = {
  total: 8,
  update: 3,
  current: 2,
  unresponsive: 1,
  other_type: 2,
  other_place: 0,
  gone: 0,
  version: '2.0.0',
  device_type: 'CC2',
  level: 'entity',
  place: 'acme',
};
const sitePlan = { ...plan, update: 2, current: 0, other_place: 3, version: '2.1.0', level: 'site', place: 'North' };

function answer(call: ApiCall) {
  if (call.url.endsWith(`/device-selection/${SEL}/choices`)) return { body: { data: choices } };
  if (call.url.endsWith(`/device-selection/${SEL}/firmware/plan`))
    return { body: { data: (call.body as { firmware_id: string }).firmware_id === SITE_FW ? sitePlan : plan } };
  if (call.url.endsWith(`/device-selection/${SEL}/provision/plan`))
    return { body: { data: { total: 8, start: 5, offline: 2, unresponsive: 1, gone: 0 } } };
  if (call.url.endsWith(`/device-selection/${SEL}/firmware`))
    return { status: 202, body: { data: { ...sel, action: 'firmware', state: 'running', plan } } };
  return { status: 404 };
}

beforeEach(() => signInAs());

describe('MatchingChoiceDialog', () => {
  it('shows the firmware dry run’s breakdown before the update can be confirmed, then starts it', async () => {
    const calls = stubApi(answer);
    const onStarted = vi.fn();
    const { user } = renderUi(
      <MatchingChoiceDialog kind="firmware" sel={sel} onClose={() => {}} onStarted={onStarted} />,
    );
    const confirm = screen.getByRole('button', { name: 'Update 8 matching' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByLabelText(/^Firmware/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'CC2 2.0.0', hidden: true }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        '3 devices of 8 will be updated to CC2 2.0.0. Skipped: 2 already run 2.0.0, 1 unresponsive (silent for 20 minutes), 2 of another device type.',
      ),
    );
    const go = screen.getByRole('button', { name: 'Update 3 devices', hidden: true });
    await waitFor(() => expect(go.hasAttribute('disabled')).toBe(false));
    await user.click(go);
    await waitFor(() => expect(onStarted).toHaveBeenCalledWith('Update Firmware', SEL));
    const act = calls.find((c) => c.method === 'POST' && c.url.endsWith(`/device-selection/${SEL}/firmware`))!;
    expect(act.body).toEqual({ firmware_id: FW });
  }, 30_000);

  it('lists site-level firmware by its site, and says who is outside it', async () => {
    stubApi(answer);
    const { user } = renderUi(
      <MatchingChoiceDialog kind="firmware" sel={sel} onClose={() => {}} onStarted={() => {}} />,
    );
    await user.click(screen.getByLabelText(/^Firmware/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'CC2 2.1.0 · site North', hidden: true }));
    await waitFor(() =>
      expect(screen.getByRole('status', { hidden: true }).textContent).toBe(
        "2 devices of 8 will be updated to CC2 2.1.0 (the site North's firmware). Skipped: 1 unresponsive (silent for 20 minutes), 2 of another device type, 3 outside site North.",
      ),
    );
  }, 30_000);

  it('on the landlord’s list: its own selection paths, and each group named with its entity', async () => {
    const calls = stubApi(answer);
    const { user } = renderUi(
      <MatchingChoiceDialog kind="group" landlord sel={sel} onClose={() => {}} onStarted={() => {}} />,
    );
    await user.click(screen.getByLabelText(/^Group/, { selector: 'input' }));
    expect(await screen.findByRole('option', { name: 'acme: Ward 1', hidden: true })).toBeTruthy();
    const asked = calls.find((c) => c.url.endsWith(`/device-selection/${SEL}/choices`))!;
    expect(asked.url).not.toContain('/tenant/');
  }, 30_000);

  it('asks the provisioning dry run at once: connected devices only, the offline ones said', async () => {
    stubApi(answer);
    renderUi(<MatchingChoiceDialog kind="provision" sel={sel} onClose={() => {}} onStarted={() => {}} />);
    await waitFor(() =>
      expect(screen.getByRole('status', { hidden: true }).textContent).toBe(
        '5 devices of 8 will be provisioned (connected devices only). Skipped: 2 offline, 1 unresponsive (silent for 20 minutes).',
      ),
    );
  });
});
