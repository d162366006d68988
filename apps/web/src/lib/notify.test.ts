import { describe, expect, it, vi } from 'vitest';
import { notifyError } from './notify.ts';

const shown = vi.hoisted(() => [] as Array<{ title?: unknown; message?: unknown }>);
vi.mock('@mantine/notifications', () => ({ notifications: { show: (n: (typeof shown)[number]) => shown.push(n) } }));

describe('notifyError (core §8; issue 25)', () => {
  it('shows the user message as title and the developer message below it', async () => {
    notifyError('Failed to save', 'Name is taken');
    await vi.waitFor(() => expect(shown.at(-1)).toMatchObject({ title: 'Failed to save', message: 'Name is taken' }));
  });

  it('says a message once when both are the same, not "Account not found" twice', async () => {
    notifyError('Account not found', 'Account not found');
    await vi.waitFor(() => expect(shown.at(-1)).toMatchObject({ title: undefined, message: 'Account not found' }));
  });
});
