import { describe, expect, it, vi } from 'vitest';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { showNotice } from './show-notice.ts';

vi.mock('@/lib/notify.ts', () => ({ notifyError: vi.fn(), notifySuccess: vi.fn(), notifyWarning: vi.fn() }));

describe('showNotice', () => {
  it('shows each tone with the matching notify helper', () => {
    showNotice({ tone: 'success', message: 'Vibrate sent to 240ac40a2e48' });
    showNotice({ tone: 'warning', message: 'Held until it wakes' });
    showNotice({ tone: 'error', title: 'Reboot failed to send', message: '240ac40a2e48: busy' });
    showNotice({ tone: 'error', message: 'No devices' });
    expect(notifySuccess).toHaveBeenCalledWith('Vibrate sent to 240ac40a2e48');
    expect(notifyWarning).toHaveBeenCalledWith('Held until it wakes');
    expect(notifyError).toHaveBeenNthCalledWith(1, 'Reboot failed to send', '240ac40a2e48: busy');
    expect(notifyError).toHaveBeenNthCalledWith(2, 'No devices', undefined);
  });
});
