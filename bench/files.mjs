// Files and firmware (issue 11): a 10 MB upload's throughput beside a plain disk write of the same
// bytes, the server's RSS during 5 parallel 10 MB uploads (streaming keeps it flat), and a
// firmware update of N simulated devices through mqtt/dfu/devices: time until every device reports
// the new version and downloads served per second, beside a bulk refresh of the same devices and
// the same downloads from a bare node:http server. Run: `node --import tsx bench/files.mjs`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import {
  ADMIN,
  HOST,
  cpuTimeMs,
  fmt,
  login,
  main,
  median,
  onCleanup,
  printTable,
  ratio,
  spawnNode,
  tmpDir,
  SERVER_NODE_FLAGS,
} from './lib.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const DEVICES = arg('devices', 1000);
const RUNS = arg('runs', 3);
const FW_KB = arg('fw-kb', 256);
// Ports of this bench's range (41100–41199 unless --ports-from=N): the first free ones, since
// client connections can hold ports of the ephemeral range at any moment.
const FROM = arg('ports-from', 41100);
const [PORT, MQTT_PORT] = await freePortsFrom(FROM, 2);
const TEN_MB = 10_000_000;

async function freePortsFrom(start, n) {
  const free = [];
  for (let port = start; free.length < n && port < start + 100; port++) {
    const ok = await new Promise((resolve) => {
      const srv = net.createServer().once('error', () => resolve(false));
      srv.listen(port, HOST, () => srv.close(() => resolve(true)));
    });
    if (ok) free.push(port);
  }
  if (free.length < n) throw new Error(`No ${n} free ports from ${start}`);
  return free;
}

const row = ([figure, value, baseline, ratio, goal]) => ({ figure, value, baseline, ratio, goal });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMb = async (pid) => {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

async function startServer() {
  const child = spawnNode([...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/files-server.ts'], {
    env: { PORT: String(PORT), MQTT_PORT: String(MQTT_PORT), DATA_DIR: tmpDir() },
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', () => child.stdoutText.includes('"ready"') && resolve());
    child.on('exit', (code) => reject(new Error(`server exited ${code}\n${child.output}`)));
  });
  const url = `http://${HOST}:${PORT}`;
  const { access_token } = await login(url, { name: 'bench_admin', password: ADMIN.password });
  return { child, url, auth: { authorization: `Bearer ${access_token}` } };
}

async function upload(s, kind, fields, bytes, name = 'image.bin') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(kind === 'firmware' ? 'firmware_file' : 'file', new Blob([bytes]), name);
  const res = await fetch(`${s.url}/api/v1/tenant/bench/${kind === 'firmware' ? 'firmware' : 'files'}`, {
    method: 'POST',
    headers: s.auth,
    body: form,
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

async function uploads(s) {
  const bytes = randomBytes(TEN_MB);
  const entity = { level: 'entity', entity_id: 'bench' };
  const serverMs = [];
  const diskMs = [];
  const dir = tmpDir();
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    const rec = await upload(s, 'file', entity, bytes);
    serverMs.push(performance.now() - t);
    await fetch(`${s.url}/api/v1/tenant/bench/files/${rec.id}`, { method: 'DELETE', headers: s.auth });
    t = performance.now();
    await fs.writeFile(path.join(dir, `plain-${i}`), bytes);
    diskMs.push(performance.now() - t);
  }
  const mbps = (ms) => TEN_MB / 1e6 / (ms / 1000);
  const up = mbps(median(serverMs));
  const disk = mbps(median(diskMs));

  // 5 parallel uploads while sampling the server's resident set every 20 ms.
  const idle = await rssMb(s.child.pid);
  let peak = idle;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssMb(s.child.pid));
      await sleep(20);
    }
  })();
  const t = performance.now();
  await Promise.all(Array.from({ length: 5 }, () => upload(s, 'file', entity, bytes)));
  const parallelMs = performance.now() - t;
  sampling = false;
  await sampler;
  await fetch(`${s.url}/api/v1/tenant/bench/files/all?level=entity&entity_id=bench`, {
    method: 'DELETE',
    headers: s.auth,
  });
  printTable('Uploads (10,000,000 bytes, streamed and hashed into DATA_DIR/blobs)', [
    ...[
      [
        'upload throughput, median of ' + RUNS,
        fmt(up, ' MB/s'),
        fmt(disk, ' MB/s') + ' plain write',
        ratio(up, disk, true),
        '—',
      ],
      ['5 parallel uploads, wall time', fmt(parallelMs, ' ms'), '', '', ''],
      [
        'server RSS idle → peak during 5 × 10 MB',
        `${fmt(idle, ' MB')} → ${fmt(peak, ' MB')}`,
        '50 MB uploaded',
        fmt(peak - idle, ' MB growth'),
        '< 50 MB growth',
      ],
    ].map(row),
  ]);
}

async function dfu(s) {
  const { startFleet } = await import('../apps/simulator/src/fleet.ts');
  const image = randomBytes(FW_KB * 1024);
  await upload(
    s,
    'firmware',
    { level: 'entity', entity_id: 'bench', version: '9.0.0', device_type: 'CC1', description: 'bench' },
    image,
  );

  // Devices through the API (each answers its MQTT secret), 20 at a time.
  const creds = [];
  const names = Array.from({ length: DEVICES }, (_, i) => (0xb0000000 + i).toString(16).padStart(12, '0'));
  for (let i = 0; i < names.length; i += 20) {
    await Promise.all(
      names.slice(i, i + 20).map(async (name) => {
        const res = await fetch(`${s.url}/api/v1/tenant/bench/device`, {
          method: 'POST',
          headers: { ...s.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ document: { name, description: 'bench', manufacturing_type: 'CC1' } }),
        });
        const body = await res.json();
        creds.push({ name, entity: 'bench', password: body.data.mqtt.password });
      }),
    );
  }
  const fleet = await startFleet({
    devices: creds,
    url: `mqtt://${HOST}:${MQTT_PORT}`,
    sleeps: false,
    timeScale: 100, // reboots of 50 ms
    reportEveryS: 36_000,
    rampMs: 5_000,
    status: { fwVersion: '8.0.0', state: 'WAITING' },
  });
  onCleanup(() => fleet.stop());
  await Promise.all(fleet.devices.map((d) => d.whenOnline()));
  await sleep(1000); // the server marks them online from their subscriptions

  const post = (p, body) =>
    fetch(`${s.url}/api/v1/tenant/bench/${p}`, {
      method: 'POST',
      headers: { ...s.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  let t = performance.now();
  const refresh = await post('mqtt/general/devices', { devices: names, payload: { type: 'refresh' } });
  const refreshMs = performance.now() - t;

  const serverCpu0 = cpuTimeMs(s.child.pid);
  const benchCpu0 = process.cpuUsage();
  t = performance.now();
  const answer = await post('mqtt/dfu/devices', { devices: names });
  const callMs = performance.now() - t;
  const updated = async () => {
    const res = await fetch(`${s.url}/api/v1/tenant/bench/device?limit=1&fw_version=9.0.0`, { headers: s.auth });
    return (await res.json()).total;
  };
  let done = 0;
  const deadline = Date.now() + 300_000;
  while (done < DEVICES && Date.now() < deadline) {
    await sleep(200);
    done = await updated();
  }
  const allMs = performance.now() - t;
  const serverCpu = (cpuTimeMs(s.child.pid) - serverCpu0) / 1000;
  const benchUsage = process.cpuUsage(benchCpu0);
  const benchCpu = (benchUsage.user + benchUsage.system) / 1e6;
  const dl = fleet.devices.map((d) => d.updates).filter((u) => u.downloadStartedAt && u.downloadEndedAt);
  const span = Math.max(...dl.map((u) => u.downloadEndedAt)) - Math.min(...dl.map((u) => u.downloadStartedAt));
  const served = dl.length / (span / 1000);

  // Baseline: the same bytes to the same number of clients, 50 at a time, from a bare server.
  // Picked now: the devices' connections may hold any port of the ephemeral range meanwhile.
  const [BARE_PORT] = await freePortsFrom(FROM + 2, 1);
  const bare = http.createServer((_req, res) => res.end(image)).listen(BARE_PORT, HOST);
  onCleanup(() => bare.close());
  await new Promise((r) => bare.once('listening', r));
  t = performance.now();
  for (let i = 0; i < DEVICES; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, DEVICES - i) }, () =>
        fetch(`http://${HOST}:${BARE_PORT}/`).then((r) => r.arrayBuffer()),
      ),
    );
  const bareRate = DEVICES / ((performance.now() - t) / 1000);

  printTable(`Firmware update of ${DEVICES} simulated devices (${FW_KB} KiB image)`, [
    ...[
      ['mqtt/dfu/devices call', fmt(callMs, ' ms'), answer.userMessage, '', ''],
      [
        'until all report 9.0.0',
        fmt(allMs / 1000, ' s', 2),
        `${fmt(refreshMs / 1000, ' s', 2)} bulk refresh (${refresh.data.counts.succeeded} ok)`,
        ratio(allMs, refreshMs),
        `${done}/${DEVICES} updated`,
      ],
      [
        'CPU during the update: server / devices + bench',
        `${fmt(serverCpu, ' s')} / ${fmt(benchCpu, ' s')}`,
        `${fmt(allMs / 1000, ' s')} wall, 2 cores`,
        '',
        '',
      ],
      [
        'downloads served',
        fmt(served, '/s'),
        `${fmt(bareRate, '/s')} bare node:http`,
        ratio(served, bareRate, true),
        '',
      ],
    ].map(row),
  ]);
  await fleet.stop();
}

await main(async () => {
  const s = await startServer();
  await uploads(s);
  await dfu(s);
});
