// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Entity } from '@fleet/shared/schemas/entity';
import { renderUi } from '@/test/render.tsx';
import { EntityPicker } from './entity-picker.tsx';

const entity = (name: string, description = ''): Entity =>
  ({ name, description, license_tier: 'basic', created_at: '', updated_at: '' }) as Entity;
const ENTITIES = [entity('acme', 'Acme Ltd'), entity('globex')];

function renderPicker(props: Partial<Parameters<typeof EntityPicker>[0]> = {}) {
  const onOpen = vi.fn();
  const onRetry = vi.fn();
  const rendered = renderUi(
    <EntityPicker entities={ENTITIES} loading={false} failed={false} onRetry={onRetry} onOpen={onOpen} {...props} />,
  );
  return { onOpen, onRetry, ...rendered };
}

describe('EntityPicker', () => {
  it('offers every entity with its description and opens the one chosen', async () => {
    const { user, onOpen } = renderPicker();
    const open = screen.getByRole('button', { name: 'Open entity' });
    expect(open.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByLabelText('Entity', { selector: 'input' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['acme — Acme Ltd', 'globex']);
    await user.click(screen.getByRole('option', { name: 'globex' }));
    await user.click(open);
    expect(onOpen).toHaveBeenCalledExactlyOnceWith('globex');
  });

  it('says when the entity asked for does not exist', () => {
    renderPicker({ missing: 'gone' });
    expect(screen.getByRole('alert').textContent).toBe('Entity gone was not found.');
  });

  it('says when the entities could not be loaded, and tries again', async () => {
    const { user, onRetry } = renderPicker({ entities: undefined, failed: true });
    expect(screen.queryByLabelText('Entity', { selector: 'input' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
