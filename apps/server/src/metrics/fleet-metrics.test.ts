import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PoolProbe } from '../db/pool-probe.ts';
import { LinkStats } from '../mqtt/device-link.ts';
import { createFleetMetrics } from './fleet-metrics.ts';
import { PER_HANDLE_WALKS } from './per-handle-walks.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

function metrics() {
  const stats = new LinkStats();
  const pool = { max: 1, observeQuery: null, use: () => ({ total: 1, idle: 1, waiting: 0 }) } as unknown as PoolProbe;
  const loop = { depth: 3, observeWrite: null as ((s: number) => void) | null };
  const m = createFleetMetrics({
    mqtt: stats,
    connectedDevices: () => 2,
    pool,
    loops: () => ({ telemetry: loop }),
    liveConnections: () => 5,
    sockets: () => 2,
    fleetCounts: async () => ({
      devices: { total: 4, online: 2, unresponsive: 1 },
      commandsOpen: { queued: 1 },
      provisionSessions: {},
      rollouts: { running: 1 },
      alerts: {},
    }),
  });
  return { m, stats, loop };
}

describe('fleet metrics', () => {
  it('reads the counters the app keeps at scrape time', async () => {
    const { m, stats, loop } = metrics();
    stats.byKind.state += 3;
    stats.received += 3;
    stats.drop('over_budget');
    loop.observeWrite!(0.02);
    const text = await m.scrape();
    expect(text).toContain('fleet_mqtt_messages_total{kind="state"} 3');
    expect(text).toContain('fleet_mqtt_dropped_total{reason="over_budget"} 1');
    expect(text).toContain('fleet_batcher_queue_depth{batcher="telemetry"} 3');
    expect(text).toContain('fleet_batcher_flush_duration_seconds_count{batcher="telemetry"} 1');
    expect(text).toContain('fleet_live_connections{kind="event_stream"} 3');
    expect(text).toContain('fleet_devices{state="unresponsive"} 1');
    // prom-client's default, counted off the main thread (open-fds.ts) and still there.
    if (process.platform === 'linux') expect(text).toMatch(/^process_open_fds \d+$/m);
    // Not the defaults that walk every handle and resource at each scrape (per-handle-walks.ts).
    for (const name of PER_HANDLE_WALKS) expect(text).not.toContain(`${name} `);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds ');
    // Read again, not added up: a second scrape shows the same totals.
    expect(await m.scrape()).toContain('fleet_mqtt_messages_total{kind="state"} 3');
  });

  it('has every metric it exports in docs/metrics.md, and every one the dashboard draws', async () => {
    const { m } = metrics();
    const names = (await m.registry.getMetricsAsJSON()).map((x) => x.name).filter((n) => n.startsWith('fleet_'));
    const doc = fs.readFileSync(path.join(root, 'docs/metrics.md'), 'utf8');
    for (const name of names) expect(doc, name).toContain(`\`${name}\``);
    const dashboard = fs.readFileSync(path.join(root, 'docs/deploy/grafana-fleet.json'), 'utf8');
    const drawn = new Set([...dashboard.matchAll(/\b(fleet_[a-z_]+?)(?:_bucket|_count|_sum)?\{/g)].map((x) => x[1]!));
    expect(drawn.size).toBeGreaterThan(10);
    for (const name of drawn) expect(names, name).toContain(name);
  });
});
