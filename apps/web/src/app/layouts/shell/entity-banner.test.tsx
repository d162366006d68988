// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '@/test/render.tsx';
import { EntityBanner } from './entity-banner.tsx';

describe('EntityBanner', () => {
  it('names the entity the superadmin is inside and leads back to the landlord view', async () => {
    const onLeave = vi.fn();
    const { user } = renderUi(<EntityBanner entity="globex" onLeave={onLeave} />);
    const banner = screen.getByRole('region', { name: 'Entity view' });
    expect(banner.textContent).toContain('Superadmin inside entity globex');
    await user.click(screen.getByRole('button', { name: 'Back to landlord view' }));
    expect(onLeave).toHaveBeenCalledOnce();
  });
});
