import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { PoolProbe } from '../db/pool-probe.ts';
import type { LoopProbe } from '../lib/batching/flush-loop.ts';
import type { LinkStats } from '../mqtt/device-link.ts';
import type { FleetCounts } from './fleet-counts.ts';
import { openFdsWithoutBlocking } from './open-fds.ts';
import { dropPerHandleWalks } from './per-handle-walks.ts';

/** What the metrics read at scrape time: the running app's own counters and probes. */
export interface MetricSources {
  mqtt: LinkStats;
  /** Devices connected to the embedded broker; undefined with an external broker. */
  connectedDevices?: () => number;
  pool: PoolProbe;
  /** Each batcher's flush loop by name (`telemetry`, `command_progress`, …). */
  loops: () => Record<string, LoopProbe>;
  /** Event streams and sockets followed on this instance (live-connections.ts), and the sockets among them. */
  liveConnections: () => number;
  sockets: () => number;
  /** The database's counts, as last read (kept fresh off the scrape's path: kept-fresh.ts). */
  fleetCounts: () => Promise<FleetCounts>;
}

/** Seconds, from a millisecond write to a 10 s stall (HTTP, queries, flushes). */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Sets a labelled gauge to exactly `values` (labels absent now are dropped). */
function setAll(gauge: Gauge<string>, label: string, values: Record<string, number>): void {
  gauge.reset();
  for (const [key, n] of Object.entries(values)) gauge.set({ [label]: key }, n);
}

/**
 * The instance's registry (never prom-client's global one: tests build several apps in one
 * process). Counters the app already keeps (LinkStats) and gauges are read at scrape time in
 * `collect`; only HTTP requests, queries, flushes and settled commands are observed as they happen.
 * docs/metrics.md lists every metric and the cardinality rule.
 */
export function createFleetMetrics(sources: MetricSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  openFdsWithoutBlocking(registry);
  dropPerHandleWalks(registry);

  const http = new Histogram({
    name: 'fleet_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, and their duration.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });

  // Counters the MQTT side already keeps (LinkStats), read when scraped.
  const kept = (name: string, help: string, read: () => number | Record<string, number>, label = '') =>
    new Counter({
      name,
      help,
      labelNames: label ? [label] : [],
      registers: [registry],
      collect() {
        this.reset();
        const value = read();
        if (typeof value === 'number') return void this.inc(value);
        for (const [key, n] of Object.entries(value)) this.inc({ [label]: key }, n);
      },
    });
  const mqtt = sources.mqtt;
  kept(
    'fleet_mqtt_messages_total',
    'Messages devices published, by the kind their topic names.',
    () => mqtt.byKind,
    'kind',
  );
  kept('fleet_mqtt_received_total', 'Messages devices published, whatever their topic.', () => mqtt.received);
  kept('fleet_mqtt_dropped_total', 'Device messages dropped or refused, by reason.', () => mqtt.dropped, 'reason');
  kept(
    'fleet_mqtt_read_pauses_total',
    'Times the embedded broker stopped reading a device over its budget.',
    () => mqtt.paused,
  );
  if (sources.connectedDevices) {
    const connected = sources.connectedDevices;
    new Gauge({
      name: 'fleet_mqtt_connected_clients',
      help: "Clients (devices, gateways) connected to this instance's embedded broker.",
      registers: [registry],
      collect() {
        this.set(connected());
      },
    });
  }

  const query = new Histogram({
    name: 'fleet_db_query_duration_seconds',
    help: 'Database queries, and their duration (waiting for a connection not included).',
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  sources.pool.observeQuery = (s) => query.observe(s);
  new Gauge({
    name: 'fleet_db_pool_connections',
    help: 'Database pool connections: open, idle, callers waiting, and the pool size (max).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { total, idle, waiting } = sources.pool.use();
      setAll(this, 'state', { open: total, idle, waiting, max: sources.pool.max });
    },
  });

  const flush = new Histogram({
    name: 'fleet_batcher_flush_duration_seconds',
    help: "Each batcher's writes, and their duration.",
    labelNames: ['batcher'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const observed = new WeakSet<LoopProbe>();
  const loops = () => {
    const all = sources.loops();
    for (const [batcher, loop] of Object.entries(all)) {
      if (observed.has(loop)) continue;
      observed.add(loop);
      loop.observeWrite = (s) => flush.observe({ batcher }, s);
    }
    return all;
  };
  loops();
  new Gauge({
    name: 'fleet_batcher_queue_depth',
    help: 'Items waiting in each batcher for its next write.',
    labelNames: ['batcher'] as const,
    registers: [registry],
    collect() {
      setAll(this, 'batcher', Object.fromEntries(Object.entries(loops()).map(([name, l]) => [name, l.depth])));
    },
  });

  new Gauge({
    name: 'fleet_live_connections',
    help: 'Open event streams (SSE) and Socket.IO sockets on this instance, by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      const sockets = sources.sockets();
      setAll(this, 'kind', { socket: sockets, event_stream: Math.max(0, sources.liveConnections() - sockets) });
    },
  });

  const settled = new Counter({
    name: 'fleet_commands_settled_total',
    help: 'Commands settled on this instance (a reply, a timeout, an expiry), by type and state.',
    labelNames: ['type', 'state'] as const,
    registers: [registry],
  });

  // The database's figures, as last read, shared by the gauges below.
  const fleetGauge = (name: string, help: string, label: string) =>
    new Gauge({ name, help, labelNames: [label], registers: [registry] });
  const devices = fleetGauge(
    'fleet_devices',
    'Devices of every entity: total, online, unresponsive (20 min).',
    'state',
  );
  const open = fleetGauge(
    'fleet_commands_open',
    'Commands queued for a sleeping device or sent and unanswered.',
    'state',
  );
  const sessions = fleetGauge(
    'fleet_provision_sessions',
    'Provisioning sessions stored, by status (outcome).',
    'status',
  );
  const rollouts = fleetGauge('fleet_rollouts', 'Rollouts by state.', 'state');
  const alerts = fleetGauge('fleet_alerts', 'Alerts not cleared, by status.', 'status');

  return {
    registry,
    /** An HTTP request answered (route: its pattern, never the URL). */
    request(method: string, route: string, statusCode: number, seconds: number) {
      http.observe({ method, route, status_code: String(statusCode) }, seconds);
    },
    /** Commands that settled (CommandService.onSettled). */
    commandsSettled(rows: { type: string; state: string }[]) {
      for (const r of rows) settled.inc({ type: r.type, state: r.state });
    },
    /** The Prometheus text, with the database's figures as last read. */
    async scrape(): Promise<string> {
      const counts = await sources.fleetCounts();
      setAll(devices, 'state', counts.devices);
      setAll(open, 'state', counts.commandsOpen);
      setAll(sessions, 'status', counts.provisionSessions);
      setAll(rollouts, 'state', counts.rollouts);
      setAll(alerts, 'status', counts.alerts);
      return registry.metrics();
    },
  };
}

export type FleetMetrics = ReturnType<typeof createFleetMetrics>;
