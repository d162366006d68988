// The beacon demo at fleet scale: 5,000 Socket.IO clients (websocket, the console's transport) in
// 50 entity rooms on `/beacon-demo`, and 50 gateways publishing 200 sightings/s over MQTT; prints
// the latency from the gateway's publish to the browser's `beacon_event` (p50/p99/max over every
// client's receipt), the share delivered, and the server's CPU. Baseline in the same run: a bare
// Socket.IO server whose in-process Aedes subscriber emits each sighting straight to the room (no
// auth, rules, database or batching). Server in a child process (bench/beacon-server.ts), clients
// on worker threads (bench/beacon-clients.mjs). Bounded: --duration seconds of load per side.
// Usage: node bench/beacons.mjs [--clients=5000] [--entities=50] [--rate=200] [--duration=10]
//   [--threads=2] [--connect-rate=1000]
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import mqtt from 'mqtt';
import {
  ADMIN,
  HOST,
  arg,
  cpuTimeMs,
  fmt,
  freePort,
  login,
  main,
  percentile,
  printTable,
  readyLine,
  ratio,
  root,
  spawnNode,
  stop,
  tmpDir,
} from './lib.mjs';

const CLIENTS = arg('clients', 5000);
const ENTITIES = arg('entities', 50);
const RATE = arg('rate', 200);
const DURATION = arg('duration', 10);
const THREADS = arg('threads', 2);
const CONNECT_RATE = arg('connect-rate', 1000);
const WARMUP_S = 2;
/** RSSI values a gateway cycles through, so (entity, rssi) names one publish for 59 / (RATE / ENTITIES) s. */
const RSSI = Array.from({ length: 59 }, (_, i) => -99 + i);
const gatewayName = (i) => (0xbe00 + i).toString(16).padStart(12, '0');
const beaconMac = (i) => `beac${i.toString(16).padStart(8, '0')}`;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startSide(mode) {
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', path.join(root, 'bench/beacon-server.ts')], {
    env: { MODE: mode, PORT: String(port), DATA_DIR: tmpDir('fleet-bench-beacons-'), ENTITIES: String(ENTITIES) },
  });
  const ready = await readyLine(child, `${mode} server`);
  return { child, url: `http://${HOST}:${port}`, ...ready };
}

/** One side: connect everything, warm up, record DURATION s of open-loop load, answer the figures. */
async function measure(mode) {
  const side = await startSide(mode);
  const token = mode === 'app' ? (await login(side.url, ADMIN)).access_token : 'none';
  const per = Math.ceil(CLIENTS / THREADS);
  const workers = Array.from({ length: THREADS }, (_, t) => {
    const w = new Worker(path.join(root, 'bench/beacon-clients.mjs'), {
      workerData: {
        url: side.url,
        token,
        entities: ENTITIES,
        clients: Math.min(per, CLIENTS - t * per),
        offset: t * per,
        connectRate: CONNECT_RATE / THREADS,
      },
    });
    w.on('error', (err) => console.error(`worker ${t}:`, err));
    return w;
  });
  const ask = (w, m) => new Promise((resolve) => (w.once('message', resolve), w.postMessage(m)));
  await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))));
  const connectStart = Date.now();
  for (;;) {
    const s = await Promise.all(workers.map((w) => ask(w, 'status')));
    const connected = s.reduce((a, b) => a + b.connected, 0);
    const failed = s.reduce((a, b) => a + b.failed, 0);
    if (connected + failed >= CLIENTS) {
      if (failed > 0) console.warn(`${mode}: ${failed} clients were refused`);
      break;
    }
    if (Date.now() - connectStart > 120_000) throw new Error(`${mode}: only ${connected}/${CLIENTS} connected`);
    await sleep(250);
  }

  const gateways = await Promise.all(
    Array.from({ length: ENTITIES }, (_, i) =>
      mqtt.connectAsync(side.mqttUrl, {
        protocolVersion: 4,
        clientId: gatewayName(i),
        username: gatewayName(i),
        password: `bench-${gatewayName(i)}`,
        reconnectPeriod: 0,
      }),
    ),
  );
  const published = new Map(); // `${entity}/${rssi}` → publish times
  let sent = 0;
  let recordedSent = 0;
  let recording = false;
  const cursor = new Array(ENTITIES).fill(0);
  const publishOne = (k) => {
    const e = k % ENTITIES;
    const rssi = RSSI[cursor[e]++ % RSSI.length];
    const key = `${e}/${rssi}`;
    const at = now();
    (published.get(key) ?? published.set(key, []).get(key)).push(at);
    if (recording) recordedSent++;
    gateways[e].publish(
      `fleet/bench_e${e}/${gatewayName(e)}/beacon`,
      JSON.stringify({ beacon_mac: beaconMac(e), rssi, ts: Date.now() }),
      { qos: 0 },
    );
    sent++;
  };
  // Open loop: each tick publishes what the schedule owes by now, whatever the server does.
  const run = async (seconds) => {
    const start = now();
    let due = 0;
    while (now() - start < seconds * 1000) {
      const owed = Math.floor(((now() - start) / 1000) * RATE);
      for (; due < owed; due++) publishOne(sent);
      await sleep(2);
    }
  };
  await run(WARMUP_S);
  await Promise.all(workers.map((w) => w.postMessage('record')));
  recording = true;
  const cpu0 = cpuTimeMs(side.child.pid);
  const t0 = now();
  await run(DURATION);
  const cpuMs = cpuTimeMs(side.child.pid) - cpu0;
  const windowMs = now() - t0;
  recording = false;
  await sleep(1500); // stragglers
  const logs = await Promise.all(workers.map((w) => ask(w, 'stop')));
  await Promise.all(gateways.map((g) => g.endAsync()));
  await Promise.all(workers.map((w) => w.terminate()));
  await stop(side.child);

  for (const list of published.values()) list.sort((a, b) => a - b);
  const latencies = [];
  for (const log of logs) {
    for (let i = 0; i < log.at.length; i++) {
      const times = published.get(`${log.entity[i]}/${log.rssi[i]}`);
      if (!times) continue;
      let sentAt;
      for (const t of times) if (t <= log.at[i]) sentAt = t;
      // Only publishes of the recorded window count (a warm-up one may arrive just after it starts).
      if (sentAt !== undefined && sentAt >= t0) latencies.push(log.at[i] - sentAt);
    }
  }
  latencies.sort((a, b) => a - b);
  const clientsPerEntity = CLIENTS / ENTITIES;
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    delivered: latencies.length / (recordedSent * clientsPerEntity),
    deliveries: latencies.length / (windowMs / 1000),
    cpu: cpuMs / windowMs,
  };
}

await main(async () => {
  console.log(
    `beacons: ${CLIENTS} Socket.IO clients in ${ENTITIES} entities, ${RATE} sightings/s for ${DURATION} s (+${WARMUP_S} s warm-up)`,
  );
  const bare = await measure('bare');
  const app = await measure('app');
  const ms = (v) => fmt(v, ' ms');
  printTable('gateway publish → browser beacon_event', [
    { figure: 'p50', value: ms(app.p50), baseline: ms(bare.p50), ratio: ratio(app.p50, bare.p50) },
    { figure: 'p99', value: ms(app.p99), baseline: ms(bare.p99), ratio: ratio(app.p99, bare.p99), goal: '≤ 100 ms' },
    { figure: 'max', value: ms(app.max), baseline: ms(bare.max), ratio: ratio(app.max, bare.max) },
    {
      figure: 'delivered',
      value: fmt(app.delivered * 100, ' %'),
      baseline: fmt(bare.delivered * 100, ' %'),
      ratio: ratio(app.delivered, bare.delivered),
    },
    { figure: 'events to browsers /s', value: fmt(app.deliveries, '', 0), baseline: fmt(bare.deliveries, '', 0) },
    {
      figure: 'server CPU (of one core)',
      value: fmt(app.cpu * 100, ' %'),
      baseline: fmt(bare.cpu * 100, ' %'),
      ratio: ratio(app.cpu, bare.cpu),
    },
  ]);
});
