// @vitest-environment happy-dom
import type { ProvisionAnswer } from '@fleet/shared/provision';
import { screen, within } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import type { EventStreamOptions } from '@/lib/sse.ts';
import { renderUi } from '@/test/render.tsx';
import { createProvisioningStore, type ProvisioningState } from '../hooks/provisioning-store.ts';
import { ProvisionButton } from './provision-button.tsx';
import { ProvisioningModal } from './provisioning-modal.tsx';

const SESSION = '11111111-1111-4111-8111-111111111111';
type Handlers = Pick<EventStreamOptions, 'onEvent' | 'onFailure' | 'isFinal'>;

// The tab's provisioning store, built on fakes: the calls answer at once and each event stream
// is one the test pushes events into.
const fake = vi.hoisted(() => {
  const answer = (ended_at: string | null) => async () =>
    ({ data: { session_id: SESSION, ended_at } }) as ProvisionAnswer;
  return {
    api: { start: vi.fn(answer(null)), cancel: vi.fn(answer('2026-11-25T10:00:00Z')), get: vi.fn(answer(null)) },
    streams: [] as Handlers[],
  };
});
vi.mock('../hooks/use-provisioning.ts', () => {
  const provisioning = createProvisioningStore({
    api: fake.api,
    openStream: (_entity, _device, handlers) => {
      fake.streams.push(handlers);
      return { close: () => undefined, lastEventId: () => undefined };
    },
    notices: { error: () => undefined, success: () => undefined, warning: () => undefined },
    storage: null,
  });
  return {
    provisioning,
    useProvisioning<T>(select: (state: ProvisioningState) => T): T {
      const read = () => select(provisioning.getState());
      return useSyncExternalStore(provisioning.subscribe, read, read);
    },
  };
});

const DEVICE = aDevice();
const FILES = [
  { filename: 'app.bin', device_path: '/fw/app.bin', status: 'pending' },
  { filename: 'logo.png', device_path: '/img/logo.png', status: 'pending' },
] as const;

/** The device's stream sends `event`; `data` carries the session and whatever the event says. */
function push(event: string, data: Record<string, unknown>) {
  const stream = fake.streams.at(-1);
  if (!stream) throw new Error('no stream opened');
  stream.onEvent({ id: String(Date.now()), event, data: JSON.stringify({ session_id: SESSION, ...data }) });
}

const fileStatus = (dialog: ReturnType<typeof within>, filename: string) =>
  dialog.getByText(filename).parentElement?.parentElement?.lastElementChild?.textContent;

describe('provisioning a device from its row (core §2, §4)', () => {
  it('starts a session, shows each file as it progresses, and cancels it', async () => {
    const { user } = renderUi(
      <>
        <ProvisionButton device={DEVICE} disabled={false} />
        <ProvisioningModal />
      </>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: `Provision device ${DEVICE.name}` }));
    expect(fake.api.start).toHaveBeenCalledWith('acme', DEVICE.name);
    const dialog = within(await screen.findByRole('dialog', { name: 'Provisioning' }));
    expect(dialog.getByText(SESSION)).toBeTruthy();

    push('provision_started', { total: 2, total_files: 2, files: FILES, message: 'Provisioning started' });
    expect(await dialog.findByText('Files (2)')).toBeTruthy();
    expect(fileStatus(dialog, 'app.bin')).toBe('pending');
    expect(fileStatus(dialog, 'logo.png')).toBe('pending');

    push('file_updated', { device_path: '/fw/app.bin', status: 'downloading', downloading_files: 1 });
    await vi.waitFor(() => expect(fileStatus(dialog, 'app.bin')).toBe('downloading'));
    expect(dialog.getByLabelText('Downloading files').textContent).toBe('1');

    push('file_updated', { device_path: '/fw/app.bin', status: 'completed', completed_files: 1, downloading_files: 0 });
    await vi.waitFor(() => expect(fileStatus(dialog, 'app.bin')).toBe('completed'));
    expect(fileStatus(dialog, 'logo.png')).toBe('pending');
    expect(dialog.getByLabelText('Completed files').textContent).toBe('1');
    expect(dialog.getByRole('status').textContent).toContain('1 of 2 files');
    expect(screen.getByRole('button', { name: `Provisioning... device ${DEVICE.name}` })).toBeTruthy();

    await user.click(dialog.getByRole('button', { name: 'Cancel provisioning' }));
    expect(fake.api.cancel).toHaveBeenCalledWith('acme', DEVICE.name);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: `Provision device ${DEVICE.name}` })).toBeTruthy();
  });
});
