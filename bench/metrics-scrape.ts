// What one /metrics scrape costs the server, with `--fds` descriptors open (10,000 device sockets
// are 10,000 descriptors): the app's registry (apps/server/src/metrics/fleet-metrics.ts) with its
// HTTP, query, flush and settled-command series filled, scraped `--scrapes` times 50 ms apart.
// Per scrape: main-thread time (the event loop's active time, which the p99 of anything a scrape
// overlaps pays), the process's CPU (every thread: libuv's pool too), the answer's wall time; and
// each metric's own `get()`. No network, no database: run it at two commits to compare scrapes.
// Usage: node --import tsx bench/metrics-scrape.ts [--fds=10000] [--scrapes=100]
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFleetMetrics } from '../apps/server/src/metrics/fleet-metrics.ts';
import { LinkStats } from '../apps/server/src/mqtt/device-link.ts';
import type { PoolProbe } from '../apps/server/src/db/pool-probe.ts';
import { arg, fmt, loadavg, percentile } from './lib.mjs';

const FDS = arg('fds', 10_000);
const SCRAPES = arg('scrapes', 100);
const HOST = '127.0.0.1';

/** FDS descriptors: FDS / 2 loopback connections, both ends in this process. */
async function openSockets(): Promise<() => void> {
  const accepted: net.Socket[] = [];
  const server = net.createServer((s) => void accepted.push(s));
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as net.AddressInfo;
  const clients: net.Socket[] = [];
  for (let i = 0; i < FDS / 2; i += 250) {
    const batch = Array.from({ length: Math.min(250, FDS / 2 - i) }, () => net.connect(port, HOST));
    clients.push(...batch);
    await Promise.all(
      batch.map((s) => new Promise((resolve, reject) => s.once('connect', resolve).once('error', reject))),
    );
  }
  return () => {
    for (const s of [...clients, ...accepted]) s.destroy();
    server.close();
  };
}

function appRegistry() {
  const loop = () => ({ depth: 3, observeWrite: null as ((s: number) => void) | null });
  const loops = { telemetry: loop(), command_progress: loop(), provision_reports: loop(), alert_evaluation: loop() };
  const pool = { max: 1, observeQuery: null, use: () => ({ total: 1, idle: 1, waiting: 0 }) };
  const m = createFleetMetrics({
    mqtt: new LinkStats(),
    connectedDevices: () => FDS,
    pool: pool as unknown as PoolProbe,
    loops: () => loops,
    liveConnections: () => 5,
    sockets: () => 2,
    fleetCounts: async () => ({
      devices: { total: FDS, online: FDS, unresponsive: 0 },
      commandsOpen: { queued: 1, sent: 3 },
      provisionSessions: { completed: 4 },
      rollouts: {},
      alerts: {},
    }),
  });
  // The series a bench run fills: its routes and statuses, queries, flushes, settled commands.
  const routes = ['/api/v1/tenant/:entity/device/:name', '/api/v1/tenant/:entity/mqtt/general/:name', '/readyz'];
  for (let i = 0; i < 20_000; i++)
    m.request(i % 2 ? 'GET' : 'POST', routes[i % 3]!, [200, 202][i % 2]!, (i % 97) / 1000);
  for (let i = 0; i < 20_000; i++) (pool as { observeQuery: ((s: number) => void) | null }).observeQuery?.(i / 1e6);
  for (const l of Object.values(loops)) for (let i = 0; i < 100; i++) l.observeWrite?.(i / 1e4);
  m.commandsSettled(
    Array.from({ length: 1000 }, (_, i) => ({ type: 'vibrate', state: i % 10 ? 'succeeded' : 'timed_out' })),
  );
  return m;
}

await run();

async function run() {
  const close = await openSockets();
  const m = appRegistry();
  for (let i = 0; i < 5; i++) await m.scrape();
  const busy: number[] = [];
  const cpu: number[] = [];
  const wall: number[] = [];
  let text = '';
  for (let i = 0; i < SCRAPES; i++) {
    await sleep(50);
    const elu = performance.eventLoopUtilization();
    const c = process.cpuUsage();
    const t = performance.now();
    text = await m.scrape();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    busy.push(performance.eventLoopUtilization(elu).active);
  }
  const per = new Map<string, number[]>();
  for (let i = 0; i < 20; i++)
    for (const metric of m.registry.getMetricsAsArray()) {
      const t = performance.now();
      await metric.get();
      per.set(metric.name, [...(per.get(metric.name) ?? []), performance.now() - t]);
    }
  close();
  const p = (xs: number[], q: number) => fmt(percentile(xs, q), 'ms', 2);
  console.log(
    `${FDS} descriptors open, ${SCRAPES} scrapes 50 ms apart, ${text.length} bytes (${text.split('\n').length} lines) each; load average ${loadavg()}`,
  );
  console.log(`  main thread a scrape: p50 ${p(busy, 50)}, p99 ${p(busy, 99)}, max ${p(busy, 100)}`);
  console.log(`  process CPU a scrape (every thread): p50 ${p(cpu, 50)}, p99 ${p(cpu, 99)}`);
  console.log(`  answer (wall): p50 ${p(wall, 50)}, p99 ${p(wall, 99)}`);
  console.log('  slowest get(), median of 20:');
  const slowest = [...per].map(([name, xs]) => [name, percentile(xs, 50)] as const).sort((a, b) => b[1] - a[1]);
  for (const [name, ms] of slowest.slice(0, 6)) console.log(`    ${name.padEnd(42)} ${fmt(ms, 'ms', 3)}`);
  process.exit(0);
}
