import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Device } from '@fleet/shared/schemas/device';
import { describe, expect, it } from 'vitest';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import { DeviceCommandButtons } from './device-command-buttons.tsx';

// Server-rendered markup: enough to see which buttons a device gets, without a DOM.
const DEVICE = aDevice();

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
