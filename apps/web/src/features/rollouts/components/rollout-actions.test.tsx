// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import type { Rollout, RolloutAction } from '@fleet/shared/schemas/rollout';
import { describe, expect, it } from 'vitest';
import { renderUi } from '@/test/render.tsx';
import { RolloutActions } from './rollout-actions.tsx';

const counts = (failed: number) => ({ total: 4, succeeded: 1, failed, in_flight: 0, waiting: 3 - failed, skipped: 0 });
const buttons = () => screen.queryAllByRole('button').map((b) => b.textContent);

function render(state: Rollout['state'], { failed = 0, canAct = true } = {}) {
  const done: RolloutAction[] = [];
  const r = renderUi(
    <RolloutActions
      rollout={{ name: 'Spring', state, counts: counts(failed) }}
      canAct={canAct}
      busy={null}
      onAction={(a) => done.push(a)}
    />,
  );
  return { ...r, done };
}

describe('RolloutActions', () => {
  it.each([
    ['draft', 0, ['Start', 'Cancel rollout']],
    ['running', 0, ['Pause', 'Cancel rollout']],
    ['running', 1, ['Retry failed', 'Pause', 'Cancel rollout']],
    ['paused', 1, ['Resume', 'Retry failed', 'Cancel rollout']],
    ['awaiting_approval', 0, ['Approve next stage', 'Pause', 'Cancel rollout']],
    ['finished', 1, ['Retry failed']],
    ['finished', 0, []],
    ['cancelled', 1, []],
  ] as const)('offers only what a %s rollout (%i failed) allows', (state, failed, expected) => {
    render(state, { failed });
    expect(buttons()).toEqual(expected);
  });

  it('offers nothing to an account that may not act', () => {
    render('paused', { failed: 1, canAct: false });
    expect(buttons()).toEqual([]);
  });

  it('acts at once on Resume', async () => {
    const { user, done } = render('paused', { failed: 1 });
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(done).toEqual(['resume']);
  });

  it('cancels only after the confirmation, and not when the person keeps it', async () => {
    const { user, done } = render('running');
    await user.click(screen.getByRole('button', { name: 'Cancel rollout' }));
    expect(screen.getByRole('dialog', { name: 'Cancel this rollout?' })).toBeTruthy();
    expect(done).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(done).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Cancel rollout' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this rollout?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel rollout' }));
    expect(done).toEqual(['cancel']);
  });
});
