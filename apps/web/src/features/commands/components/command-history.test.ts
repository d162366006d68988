import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Command } from '@fleet/shared/schemas/command';
import { describe, expect, it } from 'vitest';
import { commandHistoryPath, deviceKeys } from '@/lib/api/device-paths.ts';
import { aCommand } from '@/lib/device/test-fixtures.ts';
import { CommandHistory } from './command-history.tsx';

const NAME = '240ac40a2e48';

const command = (id: string, patch: Partial<Command>): Command => {
  const now = new Date().toISOString();
  return aCommand({ id, device: NAME, created_at: now, sent_at: now, replied_at: now, expires_at: now, ...patch });
};

/** The section server-rendered over a cached first page; the cells' text, row by row. */
function render(commands: Command[], total = commands.length): { html: string; rows: string[][] } {
  const client = new QueryClient();
  client.setQueryData(deviceKeys.commands(commandHistoryPath('acme', NAME)), {
    pages: [{ data: commands, total }],
    pageParams: [0],
  });
  const html = renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(MantineProvider, null, createElement(CommandHistory, { entity: 'acme', name: NAME })),
    ),
  );
  const body = html.slice(html.indexOf('<tbody'), html.indexOf('</tbody>'));
  const rows = [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row = '']) =>
    [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell = '']) =>
      cell
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
  return { html, rows };
}

describe('CommandHistory', () => {
  it('shows When, Command, Sent by, Outcome and Latency per command', () => {
    const { rows } = render([
      command('a', {}),
      command('b', {
        type: 'reboot',
        payload: {},
        target: 'devices',
        state: 'failed',
        error: 'battery too low',
        sent_by: 'ops',
        latency_ms: 1520,
      }),
      command('c', { type: 'refresh', payload: {}, state: 'queued', sent_at: null, latency_ms: null }),
    ]);
    expect(rows).toEqual([
      ['just now', 'Vibrate V10', 'alice', 'Succeeded', '840 ms'],
      ['just now', 'Reboot to selected devices', 'ops', 'Failed battery too low', '1,520 ms'],
      ['just now', 'Refresh', 'alice', 'Held — waiting for the device', '—'],
    ]);
  });

  it('shows the exact time on hover', () => {
    const at = '2026-11-22T12:00:00.000Z';
    const { html } = render([command('a', { created_at: at })]);
    expect(html).toContain(`<time dateTime="${at}" title="${new Date(at).toLocaleString()}">`);
  });

  it('offers more when the device has more commands than loaded', () => {
    expect(render([command('a', {})], 45).html).toContain('Load more');
    expect(render([command('a', {})], 45).html).toContain('1 of 45 commands');
    expect(render([command('a', {})]).html).not.toContain('Load more');
  });

  it('says so when no command was sent yet', () => {
    expect(render([]).html).toContain('No commands sent to this device yet');
  });
});
