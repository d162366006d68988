import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Device } from '@fleet/shared/schemas/device';
import { describe, expect, it } from 'vitest';
import { DeviceCommandButtons } from './device-command-buttons.tsx';

// Server-rendered markup: enough to see which buttons a device gets, without a DOM.
const DEVICE: Device = {
  name: '240ac40a2e48',
  description: '',
  entity: 'acme',
  group: null,
  manufacturing_type: 'CC1',
  version_id: null,
  mac_1: null,
  mac_2: null,
  has_certificate: false,
  fw_version: '1.2.0',
  state: { current: 'ALLOCATED' },
  battery: 80,
  is_charging: false,
  last_dispenser: null,
  current_provision: null,
  current_download: null,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: new Date().toISOString(),
  online: true,
};

function render(device: Device): { html: string; buttons: { label: string; disabled: boolean }[] } {
  const tree = createElement(
    QueryClientProvider,
    { client: new QueryClient() },
    createElement(MantineProvider, null, createElement(DeviceCommandButtons, { device })),
  );
  const html = renderToStaticMarkup(tree);
  const buttons = [...html.matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/g)].map(([, attrs = '', inner = '']) => ({
    label: inner.replace(/<[^>]+>/g, '').trim(),
    disabled: /\sdisabled=""/.test(attrs),
  }));
  return { html, buttons };
}

describe('DeviceCommandButtons', () => {
  it('offers Refresh, Vibrate and Reboot to a responsive device', () => {
    expect(render(DEVICE).buttons).toEqual([
      { label: 'Refresh', disabled: false },
      { label: 'Vibrate', disabled: false },
      { label: 'Reboot', disabled: false },
    ]);
  });

  it('disables them for an unresponsive device and says why', () => {
    const stale = { ...DEVICE, updated_at: new Date(Date.now() - 21 * 60_000).toISOString() };
    const { html, buttons } = render(stale);
    expect(buttons.map((b) => b.disabled)).toEqual([true, true, true]);
    expect(html).toContain('Unresponsive — commands are disabled');
  });

  it('keeps them for a sleeping device, noting that commands wait', () => {
    const { html, buttons } = render({ ...DEVICE, online: false });
    expect(buttons.map((b) => b.disabled)).toEqual([false, false, false]);
    expect(html).toContain('Asleep — commands wait until it wakes');
  });
});
