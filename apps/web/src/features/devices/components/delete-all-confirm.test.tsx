// @vitest-environment happy-dom
import { Button } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fill, renderUi } from '@/test/render.tsx';
import { useConfirmDeleteAll, type DeleteAllRequest } from './delete-all-confirm.tsx';

function Harness({ request, onAnswer }: { request: DeleteAllRequest; onAnswer(confirmed: boolean): void }) {
  const [confirm, dialog] = useConfirmDeleteAll();
  return (
    <>
      <Button onClick={() => void confirm(request).then(onAnswer)}>Delete all devices</Button>
      {dialog}
    </>
  );
}

async function open(request: DeleteAllRequest) {
  const onAnswer = vi.fn();
  const rendered = renderUi(<Harness request={request} onAnswer={onAnswer} />);
  await rendered.user.click(screen.getByRole('button', { name: 'Delete all devices' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Are you sure?' }));
  const remove = dialog.getByRole('button', { name: 'Yes, delete it!' });
  return { ...rendered, dialog, remove, onAnswer };
}

describe('the confirmation of Delete all devices', () => {
  it("states the count and enables the delete only once the entity's name is typed", async () => {
    const { user, dialog, remove, onAnswer } = await open({ count: 42, entity: 'initech' });
    expect(dialog.getByText('All 42 devices of initech will be deleted', { exact: false })).toBeTruthy();
    expect(dialog.getByText("You won't be able to revert this!")).toBeTruthy();
    expect(remove.hasAttribute('disabled')).toBe(true);
    await fill(user, 'Type initech to confirm', 'initec');
    expect(remove.hasAttribute('disabled')).toBe(true);
    await fill(user, 'Type initech to confirm', 'h');
    expect(remove.hasAttribute('disabled')).toBe(false);
    await user.click(remove);
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(true));
  });

  it('answers no on Cancel, and asks the landlord without an entity to type "all entities"', async () => {
    const { user, dialog, onAnswer } = await open({ count: 1, entity: null });
    expect(dialog.getByText('The one device of every entity will be deleted', { exact: false })).toBeTruthy();
    expect(dialog.getByLabelText('Type all entities to confirm')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(onAnswer).toHaveBeenCalledWith(false));
  });

  it('offers nothing to delete when there are no devices', async () => {
    const { dialog, remove } = await open({ count: 0, entity: 'initech' });
    expect(dialog.getByText('There are no devices of initech to delete.')).toBeTruthy();
    expect(remove.hasAttribute('disabled')).toBe(true);
  });
});
