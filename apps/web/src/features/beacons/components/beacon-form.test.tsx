// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fill, renderUi } from '@/test/render.tsx';
import { useBeaconForm } from '../hooks/use-beacon-form.ts';
import { BeaconFormView } from './beacon-form.tsx';

function Form({ onSubmit }: { onSubmit(): void }) {
  return <BeaconFormView form={useBeaconForm()} saving={false} onSubmit={onSubmit} />;
}

const addBeacon = () => screen.getByRole('button', { name: 'Add Beacon' });

describe('the beacon form says why Add Beacon is disabled (issue 25)', () => {
  it('names what is still missing beside the button, until nothing is', async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<Form onSubmit={onSubmit} />);
    expect(addBeacon().hasAttribute('disabled')).toBe(true);
    const hint = document.getElementById(addBeacon().getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe(
      'To add the beacon, complete: Beacon MAC, Patient Name, Medication 1 name, Medication 1 dosage.',
    );

    await fill(user, /^Beacon MAC/, 'c3a1b2d4e5f6');
    await fill(user, /^Patient Name/, 'Ada Lovelace');
    await fill(user, 'Medication 1 name', 'Metformin');
    expect(hint?.textContent).toBe('To add the beacon, complete: Medication 1 dosage.');

    await fill(user, 'Medication 1 dosage', '500 mg');
    expect(document.getElementById('beacon-form-incomplete')).toBeNull();
    expect(addBeacon().hasAttribute('disabled')).toBe(false);
    expect(addBeacon().hasAttribute('aria-describedby')).toBe(false);
    await user.click(addBeacon());
    expect(onSubmit).toHaveBeenCalledOnce();
  });
});
