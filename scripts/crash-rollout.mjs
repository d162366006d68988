#!/usr/bin/env node
// Kill -9 of the server mid-rollout (issue 28): every device is sent each rollout step at most
// once and none is forgotten (the rollout finishes, every device settled). Spawns the built server
// (apps/server/dist/main.js: `npm run build` first) on a new data directory with a fixed MQTT
// port, connects plain MQTT devices that answer firmware updates after a random delay, starts a
// rollout, kills the server with SIGKILL while devices are in flight, starts it again on the same
// data directory (the devices reconnect), waits for the rollout to finish and reads the database.
//
//   node scripts/crash-rollout.mjs [runs=10] [devices=24]     (PGlite)
//
// The integration suite runs two of these runs (apps/server/test/integration/rollout-crash.test.ts).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { ADMIN, freePort, read, startServer } from './crash-audit.mjs';

const VERSION = '9.9.9';

/**
 * @param {string} base
 * @param {string} token
 */
export const client = (base, token) => ({
  /** @param {string} method @param {string} p @param {unknown} [body] */
  async call(method, p, body) {
    const res = await fetch(base + p, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  },
});

/** Signs in, makes an entity, its firmware and `n` CC1 devices; answers their credentials. */
/** @param {string} base @param {number} n */
export async function setUp(base, n) {
  const login = await client(base, '').call('POST', '/login', ADMIN);
  const token = login.body.access_token;
  const api = client(base, token);
  const entity = `crash_${Math.random().toString(16).slice(2, 10)}`;
  await api.call('POST', '/tenant', { document: { name: { name: entity, description: '' } } });
  const fw = await uploadFirmware(base, token, entity, VERSION);
  /** @type {Array<{ username: string, password: string }>} */
  const creds = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      const name = `c${i.toString(16).padStart(4, '0')}${Math.random().toString(16).slice(2, 9)}`;
      const res = await api.call('POST', `/tenant/${entity}/device`, {
        document: { name, description: 'crash', manufacturing_type: 'CC1' },
      });
      if (res.status !== 201) throw new Error(`device: ${res.status}`);
      creds.push(res.body.data.mqtt);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { api, token, entity, fw, creds };
}

/** Uploads a CC1 firmware `version` at the entity's level; answers its id. */
/** @param {string} base @param {string} token @param {string} entity @param {string} version */
export async function uploadFirmware(base, token, entity, version) {
  const form = new FormData();
  const fields = { level: 'entity', entity_id: entity, version, device_type: 'CC1', description: '' };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('firmware_file', new Blob([Buffer.alloc(1000, 7)]), 'image.bin');
  const up = await fetch(`${base}/tenant/${entity}/firmware`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (up.status !== 201) throw new Error(`firmware: ${up.status}`);
  return /** @type {{ data: { id: string } }} */ (await up.json()).data.id;
}

/**
 * A device that reconnects by itself and answers a firmware update after 100–600 ms with the new
 * version, and reports the version it runs each time it connects (so an update whose reply died
 * with the killed server still settles). `received` counts each update command id it was given.
 */
/** @param {string} url @param {string} entity @param {{ username: string, password: string }} c */
export function device(url, entity, c) {
  /** @type {Map<string, number>} */
  const received = new Map();
  /** @type {string | undefined} */
  let version;
  const m = mqtt.connect(url, {
    protocolVersion: 4,
    clientId: c.username,
    username: c.username,
    password: c.password,
    reconnectPeriod: 250,
    clean: true,
  });
  const prefix = `fleet/${entity}/${c.username}`;
  m.on('connect', () => {
    m.subscribe(`${prefix}/cmd`, { qos: 1 });
    const report = { state: 'WAITING', online: true, ...(version && { fw_version: version }) };
    m.publish(`${prefix}/state`, JSON.stringify(report), { qos: 1 });
  });
  m.on('error', () => undefined);
  m.on('message', (_topic, payload) => {
    const cmd = JSON.parse(payload.toString());
    if (cmd.type !== 'dfu') return;
    received.set(cmd.id, (received.get(cmd.id) ?? 0) + 1);
    setTimeout(
      () => {
        version = cmd.payload?.version ?? VERSION;
        const reply = { id: cmd.id, status: 'success', data: { fw_version: version } };
        m.publish(`${prefix}/reply`, JSON.stringify(reply), { qos: 1 });
      },
      100 + Math.random() * 500,
    );
  });
  const connected = new Promise((resolve) => m.once('connect', resolve));
  return { name: c.username, received, connected, close: () => m.end(true) };
}

/** @param {() => Promise<boolean>} test @param {number} ms */
export async function until(test, ms) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100)))
    if (await test().catch(() => false)) return true;
  return false;
}

/**
 * One run: `n` devices, a rollout (canary 2, then 25 %, 50 %, 100 %; 4 in flight), SIGKILL
 * `killAfterMs` after it started, a restart, and the checks. The server is killed whatever happens.
 * `atKill: false` skips reading the devices' states at the kill (`atKill` is then empty): that read
 * opens the killed server's database, which costs as much as a server's start, and only this
 * script's printout shows it; the checks read the database at the end.
 */
/** @param {{ devices?: number, killAfterMs?: number, atKill?: boolean }} [options] */
export async function crashRolloutRun({
  devices: n = 24,
  killAfterMs = 300 + Math.random() * 2000,
  atKill = true,
} = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-crash-rollout-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const env = { MQTT_PORT: String(mqttPort) };
  let proc = await startServer(dataDir, port, undefined, env);
  /** @type {ReturnType<typeof device>[]} */
  const devs = [];
  try {
    const base = `http://127.0.0.1:${port}/api/v1`;
    const { api, entity, fw, creds } = await setUp(base, n);
    devs.push(...creds.map((c) => device(`mqtt://127.0.0.1:${mqttPort}`, entity, c)));
    const body = {
      name: 'crash',
      firmware_id: fw,
      target: { kind: 'entity' },
      canary: 2,
      percents: [25, 50, 100],
      max_in_flight: 4,
      success_threshold_pct: 1,
      error_threshold_pct: 100,
      report_timeout_s: 10,
    };
    const id = (await api.call('POST', `/tenant/${entity}/rollouts`, body)).body.data.id;
    await api.call('POST', `/tenant/${entity}/rollouts/${id}/start`, {});
    await new Promise((r) => setTimeout(r, killAfterMs));
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    const [before] = atKill
      ? await read(dataDir, undefined, [
          ['select state, count(*)::int as n from rollout_devices where rollout = $1 group by state', [id]],
        ])
      : [];
    proc = await startServer(dataDir, port, undefined, env);
    const again = client(base, (await client(base, '').call('POST', '/login', ADMIN)).body.access_token);
    // A stage whose every command died unsent with the server (at most once: never sent again)
    // ends under the success threshold and pauses; its operator resumes it.
    let resumed = 0;
    const finished = await until(async () => {
      const { state } = (await again.call('GET', `/tenant/${entity}/rollouts/${id}`)).body.data;
      if (state === 'paused' && (await again.call('POST', `/tenant/${entity}/rollouts/${id}/resume`, {})).status < 300)
        resumed++;
      return state === 'finished';
    }, 90_000);
    const r = (await again.call('GET', `/tenant/${entity}/rollouts/${id}`)).body.data;
    proc.kill('SIGKILL');
    const [commands, rows] = await read(dataDir, undefined, [
      ["select device, count(*)::int as n from commands where type = 'dfu' group by device", []],
      ['select device, state, error from rollout_devices where rollout = $1', [id]],
    ]);
    return {
      finished,
      state: r.state,
      pause_reason: r.pause_reason,
      resumed,
      counts: r.counts,
      atKill: Object.fromEntries((before ?? []).map((b) => [b.state, b.n])),
      sentTwice: (commands ?? []).filter((c) => c.n > 1).map((c) => c.device),
      receivedTwoSteps: devs.filter((d) => d.received.size > 1).map((d) => d.name),
      forgotten: (rows ?? []).filter((x) => x.state === 'waiting' || x.state === 'in_flight').map((x) => x.device),
      failed: (rows ?? []).filter((x) => x.state === 'failed').map((x) => `${x.device}: ${x.error}`),
      devices: (rows ?? []).length,
    };
  } finally {
    devs.forEach((d) => d.close());
    proc.kill('SIGKILL');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 10);
  const n = Number(process.argv[3] ?? 24);
  let bad = 0;
  const started = Date.now();
  for (let i = 1; i <= runs; i++) {
    const t0 = Date.now();
    const r = await crashRolloutRun({ devices: n });
    const ok = r.finished && r.sentTwice.length === 0 && r.receivedTwoSteps.length === 0 && r.forgotten.length === 0;
    if (!ok) bad++;
    console.log(
      `run ${i}: at the kill ${JSON.stringify(r.atKill)}; after ${JSON.stringify(r.counts)} ${r.state}, ` +
        `${r.failed.length} failed ${JSON.stringify(r.failed)}, resumed ${r.resumed}, ${Date.now() - t0} ms` +
        (ok ? '' : ` FAILED ${JSON.stringify(r)}`),
    );
  }
  console.log(`${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${bad} with a violation`);
  process.exit(bad === 0 ? 0 : 1);
}
