#!/usr/bin/env node
// A rollout of N simulated devices in 4 stages with no soak (issue 28): time until every device
// reports the new version, beside a bulk DFU of the same devices in the same run (the baseline);
// and `GET …/device/{name}` p99 during the rollout beside its idle p99 on the same server.
//
//   node bench/rollout.mjs [--devices=10000]      (the built server: `npm run build` first; PGlite)
//   scripts/ci/with-services.sh node bench/rollout.mjs   (PostgreSQL and Mosquitto instead)
//
// Devices are plain MQTT clients in this process answering each update after 100–600 ms with the
// version they were sent (scripts/crash-rollout.mjs). Goals: rollout ≤ 1.25× the bulk DFU; GET
// device p99 during ≤ 2× idle. Prints figures only; never asserts. Run on a quiet machine.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer } from '../scripts/crash-audit.mjs';
import { client, device, setUp, until, uploadFirmware } from '../scripts/crash-rollout.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const N = arg('devices', 10_000);
const BULK_MAX = 1000;

/** p50 and p99 of `GET device/{name}` over `count` sequential requests, in ms. */
async function latency(api, entity, names, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await api.call('GET', `/tenant/${entity}/device/${names[i % names.length]}`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)] };
}

/** How many devices of the entity run `version` (the device list's filter). */
async function onVersion(api, entity, version) {
  const res = await api.call('GET', `/tenant/${entity}/device?fw_version=${version}&limit=1`);
  return res.body.total ?? 0;
}

const started = performance.now();
/** A phase's end, with the seconds since the start (stderr, so the table stays clean). */
const phase = (what) => console.error(`[bench] ${((performance.now() - started) / 1000).toFixed(1)} s: ${what}`);
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-bench-rollout-'));
const port = await freePort();
// Under scripts/ci/with-services.sh: its PostgreSQL and Mosquitto (devices' accounts through dynsec).
const scale = process.env.DATABASE_URL && process.env.MQTT_URL ? new URL(process.env.MQTT_URL) : null;
const mqttPort = scale ? Number(scale.port) : await freePort();
const proc = await startServer(
  dataDir,
  port,
  scale ? process.env.DATABASE_URL : undefined,
  scale ? { MQTT_URL: process.env.MQTT_URL ?? '' } : { MQTT_PORT: String(mqttPort) },
);
phase(`server up (${scale ? 'PostgreSQL, Mosquitto' : 'PGlite, embedded broker'}; load ${os.loadavg()[0].toFixed(1)})`);
/** @type {ReturnType<typeof device>[]} */
const devs = [];
const stop = async () => {
  devs.forEach((d) => d.close());
  proc.kill('SIGKILL');
  await fs.rm(dataDir, { recursive: true, force: true });
};
process.once('SIGINT', () => void stop().then(() => process.exit(130)));
try {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const { api, token, entity, creds } = await setUp(base, N);
  phase(`${N} devices registered`);
  // Connected a slice at a time: the broker takes 500 unauthenticated sockets from one address.
  for (let i = 0; i < creds.length; i += 250) {
    const slice = creds.slice(i, i + 250).map((c) => device(`mqtt://127.0.0.1:${mqttPort}`, entity, c));
    devs.push(...slice);
    await Promise.all(slice.map((d) => d.connected));
  }
  const names = creds.map((c) => c.username);
  await until(
    async () => (await api.call('GET', `/tenant/${entity}/device?seen=online&limit=1`)).body.total >= N,
    600_000,
  );
  phase('all online');
  const idle = await latency(api, entity, names, 300);

  // Baseline: a bulk DFU of every device to 10.0.0.
  const bulkFw = await uploadFirmware(base, token, entity, '10.0.0');
  // The same GET load runs beside both, so neither is timed on a quieter server.
  let t0 = performance.now();
  let duringBulk = { p50: 0, p99: 0 };
  const measuringBulk = (async () => (duringBulk = await latency(client(base, token), entity, names, 300)))();
  for (let i = 0; i < N; i += BULK_MAX)
    await api.call('POST', `/tenant/${entity}/mqtt/dfu/devices`, {
      devices: names.slice(i, i + BULK_MAX),
      firmware_id: bulkFw,
    });
  await until(async () => (await onVersion(api, entity, '10.0.0')) >= N, 1_800_000);
  const bulkS = (performance.now() - t0) / 1000;
  await measuringBulk;
  phase(`bulk DFU done in ${bulkS.toFixed(1)} s`);

  // The rollout: 10.0.1 in 4 stages (10 %, 25 %, 50 %, 100 %), no soak, all in flight allowed.
  const rolloutFw = await uploadFirmware(base, token, entity, '10.0.1');
  const body = {
    name: 'bench',
    firmware_id: rolloutFw,
    target: { kind: 'entity' },
    canary: 0,
    percents: [10, 25, 50, 100],
    max_in_flight: Math.min(N, 10_000),
    success_threshold_pct: 100,
  };
  const id = (await api.call('POST', `/tenant/${entity}/rollouts`, body)).body.data.id;
  t0 = performance.now();
  await api.call('POST', `/tenant/${entity}/rollouts/${id}/start`, {});
  let during = { p50: 0, p99: 0 };
  const measuring = (async () => (during = await latency(client(base, token), entity, names, 300)))();
  await until(async () => (await onVersion(api, entity, '10.0.1')) >= N, 1_800_000);
  const rolloutS = (performance.now() - t0) / 1000;
  await measuring;
  const r = (await api.call('GET', `/tenant/${entity}/rollouts/${id}`)).body.data;

  const row = (figure, value, baseline, goal) =>
    console.log(
      [figure, value.toFixed(2), baseline.toFixed(2), (value / baseline).toFixed(2), goal]
        .map((x) => String(x).padEnd(34))
        .join(''),
    );
  phase(`rollout done in ${rolloutS.toFixed(1)} s`);
  const where = scale ? 'PostgreSQL + Mosquitto' : 'PGlite + embedded broker';
  console.log(`rollout bench: ${N} devices, ${where}, rollout ${r.state}, ${JSON.stringify(r.counts)}`);
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  console.log(['figure', 'value', 'baseline', 'ratio', 'goal'].map((x) => x.padEnd(34)).join(''));
  row('all on the version (s)', rolloutS, bulkS, '≤ 1.25× bulk DFU');
  row('GET device p99 during (ms)', during.p99, idle.p99, '≤ 2× idle p99');
  row('GET device p50 during (ms)', during.p50, idle.p50, '');
  row('GET device p99 during bulk (ms)', duringBulk.p99, idle.p99, '(the baseline’s own)');
} finally {
  await stop();
}
