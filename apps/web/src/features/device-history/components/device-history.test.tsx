// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Telemetry, TelemetryPoint, TimelineItem } from '@fleet/shared/schemas/telemetry';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { historySeries } from '../utils/history-series.ts';
import { DeviceHistory } from './device-history.tsx';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const iso = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString();

const point = (hoursAgo: number, over: Partial<TelemetryPoint> = {}): TelemetryPoint => ({
  at: iso(hoursAgo),
  device_at: null,
  kind: 'report',
  online: true,
  state: 'idle',
  battery: 80,
  is_charging: false,
  fw_version: '1.0.0',
  ...over,
});

const raw = (points: TelemetryPoint[]): Telemetry => ({
  from: iso(24),
  to: iso(0),
  resolution: 'raw',
  bucket_s: null,
  points,
  buckets: [],
});

describe('the history series', () => {
  it('keeps raw points, each lasting until the next: charging, online and state stretches joined', () => {
    const series = historySeries(
      raw([
        point(20, { battery: 60 }),
        point(16, { battery: 40, is_charging: true }),
        point(12, { battery: 90, is_charging: true, state: 'charging' }),
        point(8, { battery: 88, online: false, kind: 'offline' }),
      ]),
    );
    expect(series.battery.map((p) => p.battery)).toEqual([60, 40, 90, 88]);
    expect(series.charging).toEqual([{ from: Date.parse(iso(16)), to: Date.parse(iso(8)), value: 'charging' }]);
    expect(series.presence.map((b) => [b.value, (b.to - b.from) / 3_600_000])).toEqual([
      ['online', 12],
      ['offline', 8],
    ]);
    expect(series.states.map((b) => b.value)).toEqual(['idle', 'charging', 'idle']);
  });

  it('draws hourly buckets at their middle by the mean, and counts an hour by what it spent half of', () => {
    const bucket = (hoursAgo: number, mean: number, charging_s: number, online_s: number) => ({
      at: iso(hoursAgo),
      points: 60,
      battery_min: mean - 5,
      battery_max: mean + 5,
      battery_mean: mean + 0.04,
      charging_s,
      online_s,
      state_s: { idle: 3000, busy: 600 },
    });
    const series = historySeries({
      ...raw([]),
      resolution: 'hourly',
      bucket_s: 3600,
      buckets: [bucket(3, 50, 0, 3600), bucket(2, 55, 2000, 1000)],
    });
    expect(series.battery).toEqual([
      { t: Date.parse(iso(2.5)), battery: 50, min: 45, max: 55 },
      { t: Date.parse(iso(1.5)), battery: 55, min: 50, max: 60 },
    ]);
    expect(series.charging.map((b) => b.from)).toEqual([Date.parse(iso(2))]);
    expect(series.presence.map((b) => b.value)).toEqual(['online', 'offline']);
    expect(series.states).toEqual([{ from: Date.parse(iso(3)), to: Date.parse(iso(1)), value: 'idle' }]);
  });
});

const event = (hoursAgo: number, type: TimelineItem['type'], data: Record<string, unknown>): TimelineItem => ({
  at: iso(hoursAgo),
  type,
  data,
});

function renderHistory(timeline: (before: string | null) => { data: TimelineItem[]; next_before: string | null }) {
  signInAs();
  const calls = stubApi(({ url }) => {
    const u = new URL(url, 'http://x');
    if (u.pathname.endsWith('/telemetry'))
      return { body: { data: raw([point(20, { battery: 60 }), point(10, { battery: 45, is_charging: true })]) } };
    if (u.pathname.endsWith('/timeline')) return { body: timeline(u.searchParams.get('before')) };
    return { status: 404 };
  });
  return { calls, ...renderUi(<DeviceHistory entity="acme" name="dev_1" clock={() => NOW} />) };
}

describe('the History view', () => {
  it('asks for the range chosen and draws the battery line with its charging stretch', async () => {
    const { calls, user } = renderHistory(() => ({ data: [], next_before: null }));
    const chart = await screen.findByRole('img', { name: /Battery over the last 24 h: from 60 % to 45 %/ });
    expect(chart.querySelectorAll('[data-band="charging"]')).toHaveLength(1);
    const telemetry = () => calls.filter((c) => c.url.includes('/telemetry')).map((c) => new URL(c.url, 'http://x'));
    expect(telemetry()[0]!.pathname).toBe('/api/v1/tenant/acme/device/dev_1/telemetry');
    expect(telemetry()[0]!.searchParams.get('from')).toBe(iso(24));
    await user.click(screen.getByText('7 d'));
    await vi.waitFor(() => expect(telemetry().at(-1)!.searchParams.get('from')).toBe(iso(7 * 24)));
    expect(telemetry().at(-1)!.searchParams.get('to')).toBe(iso(0));
    expect(await screen.findByText('Nothing has happened to this device yet')).toBeTruthy();
  });

  it('pages the timeline with Load more, asking for what came before the last page', async () => {
    const { calls, user } = renderHistory((before) =>
      before === null
        ? {
            data: [
              event(1, 'offline', { battery: 45 }),
              event(2, 'command', { command: 'reboot', state: 'done', sent_by: 'alice' }),
            ],
            next_before: iso(2),
          }
        : {
            data: [event(30, 'audit', { action: 'device.create', actor: 'alice', outcome: 'success' })],
            next_before: null,
          },
    );
    expect(await screen.findByText('Went offline')).toBeTruthy();
    expect(screen.getByText('done · by alice')).toBeTruthy();
    expect(screen.queryByText('device.create')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('device.create')).toBeTruthy();
    const pages = calls.filter((c) => c.url.includes('/timeline')).map((c) => new URL(c.url, 'http://x').searchParams);
    expect(pages.map((p) => p.get('before'))).toEqual([null, iso(2)]);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText(/3 events · the beginning/)).toBeTruthy();
  });

  it('says the battery history could not be loaded, with Try again', async () => {
    signInAs();
    stubApi(({ url }) =>
      url.includes('/telemetry') ? { status: 500, body: {} } : { body: { data: [], next_before: null } },
    );
    renderUi(<DeviceHistory entity="acme" name="dev_1" clock={() => NOW} />);
    expect(await screen.findByText('The battery history could not be loaded.')).toBeTruthy();
  });
});
