// @vitest-environment happy-dom
import { Button, Menu } from '@mantine/core';
import type { Device } from '@fleet/shared/schemas/device';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { commandAvailability } from '@/lib/device/command-availability.ts';
import { aCommand, aDevice } from '@/lib/device/test-fixtures.ts';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { CommandMenuItems } from '../components/command-menu-items.tsx';
import { HELD_FILL } from '../components/entity-command-progress.tsx';
import { MultiDeviceMenu } from '../components/multi-device-menu.tsx';
import { useDeviceListCommands } from './use-device-list-commands.ts';

const DEVICE = aDevice();
const AVAILABILITY = commandAvailability(DEVICE, Date.now());

/** The list's two menus wired to the hook as the list screen wires them. */
function ListMenus({ devices, selected }: { devices: Device[]; selected: string[] }) {
  const commands = useDeviceListCommands({
    landlord: false,
    entityFilter: '',
    selected: new Set(selected),
    devices,
  });
  return (
    <>
      <Menu>
        <Menu.Target>
          <Button>Row actions</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <CommandMenuItems
            availability={AVAILABILITY}
            busy={false}
            onCommand={(action) => void commands.onCommand(DEVICE, action)}
          />
        </Menu.Dropdown>
      </Menu>
      <MultiDeviceMenu
        selectedCount={selected.length}
        writable={false}
        onCommandSelected={(action) => void commands.onCommandSelected(action)}
        vibrateAllLabel={commands.vibrateAllLabel}
        onVibrateAll={() => void commands.onVibrateAll()}
        onDeleteSelected={() => undefined}
        onDeleteAll={() => undefined}
        allScope=""
        busy={commands.busy}
      />
      {commands.confirmDialog}
      {commands.progressPanel}
      {commands.repliesPanel}
    </>
  );
}

const ID = '0b7c8e1a-4d2f-4e6b-9c3a-5f1e2d3c4b5a';
/** An entity-wide vibrate's progress as the server counts it. */
const progress = (status: 'running' | 'done', counts: Partial<Record<string, number>>) => ({
  status,
  userMessage: `Vibrate sent to 3 devices: ${counts.succeeded ?? 0} answered`,
  data: {
    id: ID,
    type: 'vibrate',
    total: 3,
    counts: { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 0, expired: 0, ...counts },
  },
});

const isRefresh = (body: unknown) => (body as { payload?: { type?: string } }).payload?.type === 'refresh';
/** Two selected devices refreshed: one replied with its state, one is broken. */
const REFRESH_ANSWER = {
  status: 'partial',
  userMessage: 'Refresh to 2 devices: 1 succeeded, 1 failed',
  data: {
    counts: { succeeded: 1, failed: 1, timed_out: 0, queued: 0, sent: 0 },
    results: [
      {
        device: DEVICE.name,
        state: 'succeeded',
        error: null,
        report: { state: 'IDLE', fw_version: '3.0.1', battery: 64 },
      },
      { device: 'aaaa00000002', state: 'failed', error: 'Sensor offline' },
    ],
  },
};

function render(selected: string[] = []) {
  signInAs();
  const calls = stubApi((call) =>
    call.url.includes('/entity?wait=false')
      ? { status: 202, body: progress('running', { sent: 2, queued: 1 }) }
      : call.url.endsWith(`/entity/${ID}`)
        ? { body: progress('done', { succeeded: 1, failed: 1, queued: 1 }) }
        : call.url.endsWith('/devices') && isRefresh(call.body)
          ? { body: REFRESH_ANSWER }
          : call.url.endsWith('/devices')
            ? {
                body: {
                  status: 'success',
                  userMessage: 'Sent',
                  data: { counts: { succeeded: 1, failed: 0, timed_out: 0, queued: 0, sent: 0 }, results: [] },
                },
              }
            : { body: { status: 'success', data: aCommand({ type: 'reboot' }) } },
  );
  const rendered = renderUi(<ListMenus devices={[DEVICE]} selected={selected} />);
  const sent = () => calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body]);
  const choose = async (menu: string, item: string) => {
    await rendered.user.click(screen.getByRole('button', { name: menu }));
    await rendered.user.click(screen.getByRole('menuitem', { name: item }));
  };
  const answer = async (title: string, button: string) => {
    const dialog = within(await screen.findByRole('dialog', { name: title }));
    await rendered.user.click(dialog.getByRole('button', { name: button }));
  };
  return { ...rendered, sent, choose, answer };
}

describe('commands from the device list (core §2)', () => {
  it("asks before rebooting a row's device; Cancel sends nothing", async () => {
    const { choose, answer, sent } = render();
    await choose('Row actions', 'Reboot');
    await answer(`Reboot ${DEVICE.name}?`, 'Cancel');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent()).toEqual([]);
    await choose('Row actions', 'Reboot');
    await answer(`Reboot ${DEVICE.name}?`, 'Reboot');
    await vi.waitFor(() =>
      expect(sent()).toEqual([[`/api/v1/tenant/acme/mqtt/general/${DEVICE.name}`, { payload: { type: 'reboot' } }]]),
    );
  });

  it('sends Refresh without asking', async () => {
    const { choose, sent } = render();
    await choose('Row actions', 'Refresh');
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() =>
      expect(sent()).toEqual([[`/api/v1/tenant/acme/mqtt/general/${DEVICE.name}`, { payload: { type: 'refresh' } }]]),
    );
  });

  it('asks before rebooting the selection, then sends it in one call', async () => {
    const { choose, answer, sent } = render([DEVICE.name]);
    await choose('Multi-Device Action', 'Reboot selected');
    await answer('Reboot 1 device?', 'Reboot');
    await vi.waitFor(() =>
      expect(sent()).toEqual([
        ['/api/v1/tenant/acme/mqtt/general/devices', { devices: [DEVICE.name], payload: { type: 'reboot' } }],
      ]),
    );
  });

  it('asks before every device of the entity vibrates', async () => {
    const { choose, answer, sent } = render();
    await choose('Multi-Device Action', 'Vibrate all devices');
    await answer('Vibrate every device of acme?', 'Cancel');
    expect(sent()).toEqual([]);
    await choose('Multi-Device Action', 'Vibrate all devices');
    await answer('Vibrate every device of acme?', 'Vibrate all');
    await vi.waitFor(() =>
      expect(sent()).toEqual([
        ['/api/v1/tenant/acme/mqtt/general/entity?wait=false', { payload: { type: 'vibrate', song: 'V101' } }],
      ]),
    );
  });

  it('answers Vibrate all at once, then shows how many devices it went to and how many answered', async () => {
    const { choose, answer } = render();
    await choose('Multi-Device Action', 'Vibrate all devices');
    await answer('Vibrate every device of acme?', 'Vibrate all');
    const panel = await screen.findByRole('status', { name: 'Vibrate all devices: progress' });
    // The menu button does not spin while the devices answer.
    expect(screen.getByRole('button', { name: 'Multi-Device Action' }).getAttribute('data-loading')).toBeNull();
    expect(panel.textContent).toContain('Sent to 3 devices · 0 answered · 2 waiting for a reply · 1 not connected');
    // The held share is a striped grey that stands out from the bar's track in both schemes
    // (Mantine's filled grey is the track's colour in the dark one).
    const held = panel.querySelectorAll('.mantine-Progress-section')[3]!;
    expect(held.getAttribute('style')).toContain(HELD_FILL);
    expect(held.hasAttribute('data-striped')).toBe(true);
    // Read again every second until none waits for a reply.
    await vi.waitFor(
      () => expect(panel.textContent).toContain('Sent to 3 devices · 2 answered (1 with an error) · 1 not connected'),
      { timeout: 4_000 },
    );
  });

  it("lists each selected device's reply to Refresh selected, as a single refresh shows it", async () => {
    const { choose, user } = render([DEVICE.name, 'aaaa00000002']);
    await choose('Multi-Device Action', 'Refresh selected');
    const replies = within(await screen.findByRole('table', { name: "Refresh selected: each device's reply" }));
    const rows = replies
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      `${DEVICE.name}state IDLE · firmware 3.0.1 · battery 64%`,
      'aaaa00000002Failed: Sensor offline',
    ]);
    await user.click(screen.getByRole('button', { name: 'Close the replies of Refresh selected' }));
    expect(screen.queryByRole('region', { name: 'Refresh selected: replies' })).toBeNull();
  });
});
