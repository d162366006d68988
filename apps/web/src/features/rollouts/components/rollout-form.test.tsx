// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fill, renderUi, signInAs, stubApi, type ApiCall } from '@/test/render.tsx';
import type { ChoiceSources } from '../utils/choice-sources.ts';
import { RolloutForm } from './rollout-form.tsx';

const FW = '6f1c2b1e-8a4b-4c1e-9d55-0a1b2c3d4e5f';
const list = (data: Array<{ value: string; label: string }>) => () => ({ data, loading: false, failed: false });
const SOURCES: ChoiceSources = {
  useFirmware: list([{ value: FW, label: 'CC1 5.0.0' }]),
  useGroups: list([]),
  useSites: list([]),
  useSharedViews: list([]),
};

function answer(call: ApiCall) {
  if (call.url.endsWith('/rollouts/dry-run'))
    return {
      body: {
        status: 'success',
        data: {
          total: 12,
          skipped: 2,
          eligible: 10,
          stages: [
            { label: 'Canary (1)', size: 1 },
            { label: '100 %', size: 9 },
          ],
        },
      },
    };
  if (call.url.endsWith('/rollouts'))
    return {
      status: 400,
      body: {
        errorInfo: {
          code: 400,
          userMessage: 'Invalid request',
          developerMessage: 'body/target/query',
          details: { 'target.query': ['Unknown filter colour'], name: ['Too short'] },
        },
      },
    };
  return { status: 404 };
}

const field = (label: RegExp) => screen.getByLabelText(label, { selector: 'input:not([type="radio"])' });

beforeEach(() => signInAs());

describe('RolloutForm', () => {
  it('shows the dry run per stage once firmware is chosen, and the API’s messages under their inputs', async () => {
    const calls = stubApi(answer);
    const { user } = renderUi(<RolloutForm sources={SOURCES} />);
    expect(screen.getByTestId('dry-run').textContent).toContain('Choose what to deliver');
    await user.click(field(/^Firmware/));
    await user.click(screen.getByRole('option', { name: 'CC1 5.0.0' }));
    await waitFor(() => expect(screen.getByTestId('dry-run').textContent).toContain('12 devices in the target'));
    expect(screen.getByTestId('dry-run').textContent).toContain('2 already on the version (skipped), 10 to update');
    expect(screen.getAllByTestId('stage-size').map((s) => s.textContent)).toEqual(['1 device', '9 devices']);
    const dryRun = calls.find((c) => c.url.endsWith('/rollouts/dry-run'))!;
    expect(dryRun.body).toMatchObject({ firmware_id: FW, target: { kind: 'entity' }, canary: 1, percents: [100] });

    await user.click(field(/^Target/));
    await user.click(screen.getByRole('option', { name: 'Filter' }));
    await fill(user, /^Device filter/, 'colour=red');
    await user.click(screen.getByRole('button', { name: 'Create rollout' }));
    await screen.findByText('Unknown filter colour');
    expect(screen.getByText('Too short')).toBeTruthy();
    const created = calls.find((c) => c.method === 'POST' && c.url.endsWith('/rollouts'))!;
    expect(created.body).toMatchObject({ target: { kind: 'filter', query: 'colour=red' }, delivery: 'firmware' });
  }, 30_000);
});
