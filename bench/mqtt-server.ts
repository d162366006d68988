// Child process for bench/mqtt.mjs (run with `node --expose-gc --import tsx`). Not meant to be run
// by hand. Prints one JSON line {ready, mqttUrl, fillMs} once both ports listen; HTTP on
// 127.0.0.1:PORT, MQTT on a port the OS picks.
//   MODE=app:   the real app from build() (sources) with the embedded Aedes broker, entity `bench`,
//               account `bench_admin` and DEVICES devices `lpad(hex(i), 12)` whose MQTT secret is
//               `bench-{name}` (stored as its sha256 hex, as newDeviceSecret does). DATABASE_URL
//               selects PostgreSQL; MQTT_URL and REDIS_URL are never passed on.
//   MODE=aedes: a bare `Aedes.createBroker()` (no auth) with one in-process subscriber on the
//               server's subscriptions, counting messages: the floor for the MQTT side.
//   HISTORY=off: the app's telemetry batcher keeps no history (its `history` switch), for the
//               same-run baseline of `--history`.
// Both answer GET /bench/stats (counters; `?gc=1` runs a full GC before reading memory), POST
// /bench/flush (resolves once pending telemetry is in the database), GET /bench/verify, GET
// /bench/points (history rows written since the fill), GET /bench/trace?start / ?stop (the statements
// sent meanwhile, counted by shape; app only), POST /bench/profile?start / ?stop=FILE (a CPU profile of just that window, --cpu-prof), and GET
// /bench/loop (event-loop delay and GC pauses since the last `?reset`).
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import net from 'node:net';
import { Aedes } from 'aedes';
import { sql } from 'drizzle-orm';
import { SERVER_SUBSCRIPTIONS } from '../packages/shared/src/protocol.ts';

const port = Number(process.env.PORT);
const host = '127.0.0.1';
const n = Number(process.env.DEVICES ?? 10_000);

type Stats = { received: number } & Record<string, number>;
interface Side {
  mqttUrl: string;
  stats(): Stats;
  flush(): Promise<void>;
  verify(): Promise<Record<string, number>>;
  /** History points written since the devices were filled. */
  points(): Promise<Record<string, number>>;
  /** `start`: counts the statements sent from now; `stop`: answers them by shape, most first. */
  trace(url: URL): object;
  close(): Promise<void>;
}

/** Memory after an optional full GC: with it, heapUsed is the live heap rather than garbage not yet collected. */
function memory(gc: boolean) {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (gc && collect) collect();
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, gc: !!collect };
}

async function startApp(): Promise<Side & { fillMs: number }> {
  const { build } = await import('../apps/server/src/app.ts');
  // Counted, not changed: how many database reads the broker's sign-ins cost (one per batch of names).
  const { DeviceDirectory } = await import('../apps/server/src/mqtt/device-directory.ts');
  const directory = { loads: 0, names: 0 };
  const proto = DeviceDirectory.prototype as unknown as { load(): Promise<void>; pending: Map<string, unknown> | null };
  const load = proto.load;
  proto.load = function (this: typeof proto) {
    directory.loads++;
    directory.names += this.pending?.size ?? 0;
    return load.call(this);
  };
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { BENCH_PASSWORD, seedBenchTenant } = await import('./bench-tenant.ts');
  const config = loadConfig({
    DATA_DIR: process.env.DATA_DIR,
    ADMIN_PASSWORD: BENCH_PASSWORD,
    LOG_LEVEL: 'silent',
    HOST: host,
    MQTT_PORT: '0',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.METRICS_TOKEN ? { METRICS_TOKEN: process.env.METRICS_TOKEN } : {}),
  });
  const app = await build(config, { logger: false });
  await seedBenchTenant(app.db);
  // Upsert: a PostgreSQL database may hold these names from bench/device-list.mjs with other secrets.
  const started = performance.now();
  await app.db.execute(sql`
    insert into devices (name, entity, description, mqtt_secret_hash)
    select name, 'bench', 'mqtt bench unit', encode(sha256(convert_to('bench-' || name, 'UTF8')), 'hex')
    from (select lpad(to_hex(i), 12, '0') as name from generate_series(1, ${n}) as i) as s
    on conflict (name) do update set entity = 'bench', mqtt_secret_hash = excluded.mqtt_secret_hash,
      online = false, state_current = null, battery = null`);
  // VACUUM ANALYZE, as autovacuum would have done in a running system: fresh statistics for the
  // 10,000 rows just written (see bench/README.md on the trigram indexes).
  await app.db.execute(sql`vacuum analyze devices`);
  const fillMs = performance.now() - started;
  // History points of this run (a PostgreSQL database may hold an earlier run's).
  const startedAt = new Date().toISOString();

  const { telemetry, stats } = app.devices;
  // HISTORY=off (bench/mqtt.mjs --history): the batcher's own switch, set before any device connects.
  if (process.env.HISTORY === 'off') telemetry.history = false;
  const side: Side & { fillMs: number } = {
    fillMs,
    mqttUrl: app.devices.link.url,
    stats: () => ({
      received: stats.received,
      ...telemetry.counts,
      dropped: Object.values(stats.dropped).reduce((a, b) => a + b, 0),
      directoryLoads: directory.loads,
      directoryNames: directory.names,
    }),
    flush: () => telemetry.flush(),
    async verify() {
      // The last report of device i is {state: 'BENCH_LAST', battery: i % 101}.
      const result = await app.db.execute(sql`
        select count(*) filter (where online)::int as online,
               count(*) filter (where state_current = 'BENCH_LAST'
                 and battery = (('x' || name)::bit(48)::bigint % 101))::int as last
        from devices where name in (select lpad(to_hex(i), 12, '0') from generate_series(1, ${n}) as i)`);
      return (result as unknown as { rows: Array<Record<string, number>> }).rows[0]!;
    },
    async points() {
      const result = await app.db.execute(
        sql`select count(*)::int as points from device_telemetry where entity = 'bench' and at >= ${startedAt}`,
      );
      return (result as unknown as { rows: Array<Record<string, number>> }).rows[0]!;
    },
    trace(url) {
      const probe = app.database.probe;
      if (url.searchParams.has('start')) {
        traced.clear();
        // A statement's shape: its text with the whitespace and any literal numbers squeezed out.
        probe.traceQuery = (text) => {
          const shape = text.replace(/\s+/g, ' ').replace(/\$\d+/g, '$').slice(0, 160);
          traced.set(shape, (traced.get(shape) ?? 0) + 1);
        };
        return { ok: true };
      }
      probe.traceQuery = null;
      return [...traced].sort((a, b) => b[1] - a[1]).map(([statement, count]) => ({ count, statement }));
    },
    close: () => app.close(),
  };
  const traced = new Map<string, number>();
  app.route({
    method: ['GET', 'POST'],
    url: '/bench/:op',
    handler: async (request, reply) => {
      const body = await answer(side, new URL(request.url, 'http://x'));
      return body ? body : reply.code(404).send({});
    },
  });
  await app.listen({ port, host });
  return side;
}

async function startAedes(): Promise<Side> {
  const broker = await Aedes.createBroker();
  let received = 0;
  for (const filter of SERVER_SUBSCRIPTIONS) {
    await new Promise<void>((resolve) =>
      broker.subscribe(
        filter,
        (_packet, done) => {
          received++;
          done();
        },
        resolve,
      ),
    );
  }
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const mqttPort = (server.address() as net.AddressInfo).port;
  const api = http.createServer(async (req, res) => {
    const body = await answer(side, new URL(req.url ?? '/', 'http://x'));
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => api.listen(port, host, resolve));
  const side: Side = {
    mqttUrl: `mqtt://${host}:${mqttPort}`,
    stats: () => ({ received }),
    flush: async () => {},
    verify: async () => ({}),
    points: async () => ({ points: 0 }),
    trace: () => [],
    async close() {
      api.close();
      for (const client of Object.values((broker as unknown as { clients: Record<string, { close(): void }> }).clients))
        client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
  return side;
}

// How long the event loop stalled and how much of that was GC, since the last `?reset`: it tells a
// busy server (queueing) from one that stops now and then (GC, a long statement).
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
const gc = { ms: 0, max: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.ms += e.duration;
    gc.max = Math.max(gc.max, e.duration);
  }
}).observe({ entryTypes: ['gc'] });

function loop(url: URL) {
  const ms = (ns: number) => ns / 1e6;
  const r = {
    delayP50: ms(loopDelay.percentile(50)),
    delayP99: ms(loopDelay.percentile(99)),
    delayMax: ms(loopDelay.max),
    gcMs: gc.ms,
    gcMax: gc.max,
  };
  if (url.searchParams.has('reset')) {
    loopDelay.reset();
    gc.ms = gc.max = 0;
  }
  return r;
}

let profiler: Session | null = null;

/** Starts a CPU profile, or stops it and writes it to `file` (.cpuprofile, for Chrome DevTools). */
async function profile(url: URL) {
  if (url.searchParams.has('start')) {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  } else if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    fs.writeFileSync(url.searchParams.get('stop')!, JSON.stringify(profile));
    profiler.disconnect();
    profiler = null;
  }
  return { ok: true };
}

/** The bench routes' answers, the same in both modes; undefined for an unknown path. */
async function answer(side: Side, url: URL): Promise<object | undefined> {
  if (url.pathname === '/bench/stats') return { ...side.stats(), memory: memory(url.searchParams.has('gc')) };
  if (url.pathname === '/bench/flush') return side.flush().then(() => ({ ok: true }));
  if (url.pathname === '/bench/verify') return side.verify();
  if (url.pathname === '/bench/points') return side.points();
  if (url.pathname === '/bench/profile') return profile(url);
  if (url.pathname === '/bench/loop') return loop(url);
  if (url.pathname === '/bench/trace') return side.trace(url);
  return undefined;
}

const side: Side & { fillMs?: number } = process.env.MODE === 'aedes' ? await startAedes() : await startApp();
console.log(JSON.stringify({ ready: true, mqttUrl: side.mqttUrl, fillMs: side.fillMs ?? null }));
process.on('SIGTERM', () => void side.close().finally(() => process.exit(0)));
