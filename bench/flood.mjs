// Issue 22's flood bench: can one device starve the API, and can a stranger exhaust the broker?
// The built server (apps/server/dist/main.js, PGlite and the embedded broker) gets an entity with
// --devices devices and a second account, which lists the devices (the first page) at a steady
// --probe-rate while idle (the same-run baseline) and while ONE of the devices, authenticated,
// floods its own topics from a child process (bench/flood-device.mjs): at --rate msg/s of beacon
// sightings, state reports and events, then at --mixed-rate of state reports and sightings. The
// server's RSS is sampled throughout, and its MQTT counters and stored beacon events read after.
// Then, on a fresh server each time, K unauthenticated connections per --connections announce an
// oversized CONNECT (`10 ff ff ff 7f`) and stream 1 MiB chunks: RSS growth per connection.
// Every flood and stream is bounded in time and bytes, and a stream stops at once when the
// server's RSS passes --rss-cap-mb. A fresh server per part: one part's backlog is not the next's.
// Usage: node bench/flood.mjs [--devices=300] [--rate=40000] [--mixed-rate=63000] [--seconds=8]
//   [--idle-seconds=8] [--probe-rate=20] [--settle=30] [--connections=3,20] [--connect-mb=64]
//   [--connect-seconds=8] [--rss-cap-mb=1536] [--parts=flood,mixed,connect] [--server=<main.js>]
//   [--cpu-prof] [--rebuild]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN,
  arg,
  cpuTimeMs,
  ensureServerBuilt,
  fmt,
  login,
  main,
  percentile,
  printTable,
  readyLine,
  root,
  serverDist,
  spawnNode,
  startDistServer,
  stop,
} from './lib.mjs';
import { RssWatch, moved, mqttCounters, oversizedConnects, steadyRssMb } from './flood-probes.mjs';
import { connectRows, floodRows } from './flood-report.mjs';
import { openLoop } from './mqtt-load.mjs';

const DEVICES = arg('devices', 300);
const RATE = arg('rate', 40_000);
const MIXED_RATE = arg('mixed-rate', 63_000);
const SECONDS = arg('seconds', 8);
const IDLE_SECONDS = arg('idle-seconds', SECONDS);
const PROBE_RATE = arg('probe-rate', 20); // lists/s; an API rate limit per token must allow it
const SETTLE_S = arg('settle', 30); // at most this long for the server to work off a flood
const CONNECT_MB = arg('connect-mb', 64); // bytes each oversized CONNECT may send, MiB
const CONNECT_SECONDS = arg('connect-seconds', 8);
const RSS_CAP_MB = arg('rss-cap-mb', 1536);
const text = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const CONNECTIONS = text('connections', '3,20').split(',').map(Number);
const PARTS = text('parts', 'flood,mixed,connect').split(',');
const SERVER = path.resolve(text('server', serverDist));
// --cpu-prof: each server writes its profile to bench/profiles/ (ignored by git) when it stops.
const SERVER_ARGS = process.argv.includes('--cpu-prof')
  ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/profiles')}`]
  : [];
const ENTITY = 'flood';
const VIEWER = { name: 'flood_viewer', password: 'flood-viewer-Qm7x' };
const BEACONS = ['c3a1b2d40001', 'c3a1b2d40002', 'c3a1b2d40003', 'c3a1b2d40004'];
const LIST = `/api/v1/tenant/${ENTITY}/device?limit=20&offset=0`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** A gateway type if the device types name one (e.g. a later `GW1`), else the first type. */
function gatewayType() {
  const source = fs.readFileSync(path.join(root, 'packages/shared/src/constants.ts'), 'utf8');
  const types = [...(/DEVICE_TYPES = \[([^\]]*)\]/.exec(source)?.[1] ?? "'CC1'").matchAll(/'([^']+)'/g)].map(
    (m) => m[1],
  );
  return types.find((t) => /gw|gate|beacon/i.test(t)) ?? types[0];
}

/** One API call; waits out a 429 (Retry-After) up to 20 times; throws unless it answers `expect`. */
async function api(s, token, method, p, body, expect = 200) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${s.url}/api/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status === 429 && attempt < 20) {
      await sleep(1000 * (Number(res.headers.get('retry-after')) || 1));
      continue;
    }
    const json = await res.json().catch(() => null);
    if (res.status !== expect) throw new Error(`${method} ${p} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  }
}

/**
 * A fresh server with the entity, DEVICES devices (the first is the flooder: a gateway), BEACONS
 * configured at threshold −100 with no dose due (every sighting is an event, no reminder is
 * sent), and the viewer signed in. Resolves with the server, the tokens and the flooder's secret.
 */
async function startFleet() {
  const s = await startDistServer({ script: SERVER, args: SERVER_ARGS });
  const admin = (await login(s.url, ADMIN)).access_token;
  await api(s, admin, 'POST', '/tenant', { document: { name: { name: ENTITY } } }, 201);
  await api(
    s,
    admin,
    'POST',
    `/tenant/${ENTITY}/account`,
    {
      document: { ...VIEWER, email: 'viewer@flood.test', subtype: 'admin', access: ['all'] },
    },
    201,
  );
  const notDue = `${String((new Date().getHours() + 12) % 24).padStart(2, '0')}:00`;
  for (const [i, mac] of BEACONS.entries())
    await api(
      s,
      admin,
      'POST',
      `/tenant/${ENTITY}/beacon-configs`,
      {
        beacon_mac: mac,
        patient_name: `Patient ${i}`,
        medications: [{ name: 'Placebo', dosage: '1', time: notDue }],
        rssi_threshold: -100,
      },
      201,
    );
  const type = gatewayType();
  const names = Array.from({ length: DEVICES }, (_, i) => (0xf100d0000000 + i).toString(16));
  let flooder;
  for (let i = 0; i < names.length; i += 10)
    await Promise.all(
      names.slice(i, i + 10).map(async (name) => {
        const document = {
          name,
          description: name === names[0] ? 'flooding gateway' : 'bench',
          manufacturing_type: type,
        };
        const { data } = await api(s, admin, 'POST', `/tenant/${ENTITY}/device`, { document }, 201);
        if (name === names[0]) flooder = { name, password: data.mqtt.password };
      }),
    );
  const viewer = (await login(s.url, VIEWER)).access_token;
  const { mqtt } = await (await fetch(`${s.url}/readyz`)).json();
  return { ...s, admin, viewer, flooder, mqttUrl: mqtt.url, type };
}

/** The viewer's first page of devices at PROBE_RATE for `seconds` (open loop): p50, p99, non-200s. */
async function probe(s, seconds, warmup) {
  const bySecond = [];
  const onLatency = (i, ms) => {
    const second = Math.floor(i / PROBE_RATE);
    bySecond[second] = Math.max(bySecond[second] ?? 0, ms);
  };
  const r = await openLoop(
    s.url,
    { authorization: `Bearer ${s.viewer}` },
    { rate: PROBE_RATE, seconds, warmup, request: () => ({ method: 'GET', path: LIST }), onLatency },
  );
  const bad = Object.entries(r.statuses).filter(([status]) => status !== '200');
  return {
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    n: r.latencies.length,
    bad: bad.map(([status, n]) => `${n}× ${status === '0' ? 'timeout' : status}`).join(', '),
    maxBySecond: Array.from(bySecond, (ms) => Math.round(ms ?? NaN)),
  };
}

/** Beacon events of the entity in the last 24 hours (the stats the console shows). */
const storedEvents = async (s) =>
  (await api(s, s.viewer, 'GET', `/tenant/${ENTITY}/beacon-events?limit=1`)).data.stats.total_events_24h;

/**
 * Waits until the server has worked the flood off: its MQTT counters and stored events read
 * alike twice a second apart (a read that fails does not count), at most SETTLE_S. Resolves with
 * the seconds from `since` to the first of those two reads (NaN: not settled).
 */
async function settle(s, since) {
  let last = '';
  let lastAt = 0;
  while (performance.now() - since < SETTLE_S * 1000) {
    const at = performance.now();
    const counters = await mqttCounters(s.url);
    const events = await storedEvents(s).catch(() => NaN);
    const now = Object.keys(counters).length && !Number.isNaN(events) ? JSON.stringify([counters, events]) : '';
    if (now && now === last) return (lastAt - since) / 1000;
    [last, lastAt] = [now, at];
    await sleep(1000);
  }
  return NaN;
}

/** One flood on a fresh server: idle baseline, then the flood with the probe and the RSS watch. */
async function flood(label, rate, mix) {
  console.log(`\n${label}: ${rate.toLocaleString('en-US')} msg/s (${mix}) for ${SECONDS} s; load ${loadavg()}`);
  const s = await startFleet();
  const pid = s.child.pid;
  console.log(`  ${DEVICES} devices (${s.type}) in entity ${ENTITY}, broker ${s.mqttUrl}; probing the idle list …`);
  const idle = await probe(s, IDLE_SECONDS, 1);
  const counters0 = await mqttCounters(s.url);
  const events0 = await storedEvents(s);
  const rssBefore = await steadyRssMb(pid);
  const device = spawnNode([path.join(root, 'bench/flood-device.mjs')], {
    env: {
      MQTT_URL: s.mqttUrl,
      NAME: s.flooder.name,
      ENTITY,
      PASSWORD: s.flooder.password,
      RATE: String(rate),
      SECONDS: String(SECONDS),
      MIX: mix,
      MACS: BEACONS.join(','),
    },
  });
  await readyLine(device, 'flooding device', 30_000);
  const watch = new RssWatch(pid, { capMb: RSS_CAP_MB, onOver: () => device.kill('SIGTERM') });
  watch.mark();
  const cpu0 = cpuTimeMs(pid);
  const t0 = performance.now();
  // Polled from the flood's end on, while the probe's last answers may still be on their way.
  const settled = device.exited.then(() => settle(s, performance.now()));
  const cpu1 = device.exited.then(() => [cpuTimeMs(pid), performance.now()]);
  const during = await probe(s, SECONDS, 0);
  await device.exited;
  const [cpuEnd, tEnd] = await cpu1; // the flood's window, not the probe's last answers
  const serverCores = (cpuEnd - cpu0) / (tEnd - t0);
  const sent = JSON.parse(device.stdoutText.trim().split('\n').at(-1));
  if (sent.sent === undefined) throw new Error(`the flooding device failed:\n${device.output}`);
  console.log(`  sent ${sent.sent} (${fmt(sent.rate, 'msg/s', 0)}), per second: ${sent.perSecond.join(' ')}`);
  console.log(`  slowest list answer by second of the flood, ms: ${during.maxBySecond.join(' ')}`);
  const settledS = await settled;
  const rssAfter = await steadyRssMb(pid);
  watch.stop();
  const counters = moved(counters0, await mqttCounters(s.url));
  const events = (await storedEvents(s)) - events0;
  await stop(s.child);
  const r = { label, rate, idle, during, sent, rssBefore, rssPeak: watch.peak, rssAfter, settledS, counters, events };
  r.cores = { server: serverCores, device: sent.cpuMs / sent.elapsedMs };
  r.capped = watch.over;
  console.log(
    `  list p99 idle ${fmt(idle.p99, 'ms')}, flood ${fmt(during.p99, 'ms')}; RSS ${fmt(rssBefore, 'MB', 0)} → peak ${fmt(watch.peak, 'MB', 0)}`,
  );
  return r;
}

/** K oversized CONNECTs on a fresh server: RSS growth per connection, and what the server did. */
async function oversized(k) {
  console.log(
    `\n${k} unauthenticated oversized CONNECTs (≤ ${CONNECT_MB} MiB each, ≤ ${CONNECT_SECONDS} s); load ${loadavg()}`,
  );
  const s = await startDistServer({ script: SERVER, args: SERVER_ARGS });
  const pid = s.child.pid;
  const { mqtt } = await (await fetch(`${s.url}/readyz`)).json();
  const before = await steadyRssMb(pid);
  let load;
  const watch = new RssWatch(pid, { capMb: RSS_CAP_MB, onOver: () => load?.stop() });
  watch.mark();
  load = oversizedConnects(Number(new URL(mqtt.url).port), k, {
    maxBytes: CONNECT_MB * 1024 * 1024,
    seconds: CONNECT_SECONDS,
  });
  const conns = await load.done;
  const held = await steadyRssMb(pid); // the connections still open
  load.closeAll();
  await sleep(2000);
  const released = await steadyRssMb(pid);
  watch.stop();
  await stop(s.child);
  const closed = conns.filter((c) => c.closedByServer);
  const r = {
    k,
    before,
    peak: watch.peak,
    held,
    released,
    capped: watch.over,
    sentMb: conns.reduce((a, c) => a + c.sent, 0) / k / 1024 / 1024,
    closed: closed.length,
    closedAfterMs: percentile(
      closed.map((c) => c.closedAfterMs),
      50,
    ),
  };
  console.log(
    `  RSS ${fmt(before, 'MB', 0)} → peak ${fmt(r.peak, 'MB', 0)}, after closing ${fmt(released, 'MB', 0)}; ${r.closed} of ${k} closed by the server`,
  );
  return r;
}

await main(async () => {
  if (SERVER === serverDist) await ensureServerBuilt({ rebuild: process.argv.includes('--rebuild') });
  const git = (...a) => spawnSync('git', a, { cwd: root, encoding: 'utf8' }).stdout.trim();
  const changed = git('status', '--porcelain', 'apps/server', 'packages/shared') ? ' + uncommitted server changes' : '';
  const commit = SERVER === serverDist ? `${git('rev-parse', '--short', 'HEAD')}${changed}` : SERVER;
  const loadBefore = loadavg();
  const rows = [];
  if (PARTS.includes('flood'))
    rows.push(...floodRows(await flood(`flood ${RATE / 1000}k`, RATE, 'beacon:2,state:1,events:1'), SETTLE_S));
  if (PARTS.includes('mixed'))
    rows.push(...floodRows(await flood(`mixed ${MIXED_RATE / 1000}k`, MIXED_RATE, 'beacon:1,state:1'), SETTLE_S));
  if (PARTS.includes('connect')) for (const k of CONNECTIONS) rows.push(...connectRows(await oversized(k), CONNECT_MB));
  printTable(
    `Flood (${new Date().toISOString().slice(0, 10)}, ${commit}; ` +
      `${DEVICES} devices, list probe ${PROBE_RATE}/s, floods ${SECONDS} s; load ${loadBefore} → ${loadavg()})`,
    rows,
  );
});
