// npm run demo: the server on its own data directory (./data-demo, so ./data is never touched),
// an entity `demo` with an admin and an operator, and 50 devices of which 47 are simulated over
// MQTT. Idempotent: a second run reuses what exists and gives the devices fresh secrets.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { buildIfStale, isStale, root, run } from './lib.mjs';

const PORT = Number(process.env.PORT ?? 8080);
const MQTT_PORT = Number(process.env.MQTT_PORT ?? 1883);
const DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data-demo');
const ADMIN = { name: process.env.ADMIN_USERNAME ?? 'admin', password: process.env.ADMIN_PASSWORD ?? 'demo-admin' };
const ENTITY = 'demo';
const ACCOUNTS = [
  { name: 'demo_admin', password: 'demo-admin', subtype: 'admin', access: ['all'] },
  { name: 'demo_operator', password: 'demo-operator', subtype: 'operator', access: [] },
];
const DEVICE_COUNT = 50;
// Registered but never connected: the console shows them unresponsive 20 minutes after registration.
const SILENT_DEVICES = 3;
// Espressif's MAC prefix and a counter: 12 lower-case hex digits, the same every run.
const deviceId = (i) => `240ac4de${i.toString(16).padStart(4, '0')}`;
// Devices live 20 times faster than real time: a state report every 3 s, sleeps of seconds.
const SIMULATOR_ARGS = ['--seed', '1', '--time-scale', '20', '--status-every', '30'];

const base = `http://127.0.0.1:${PORT}`;
const children = [];
let stopping = false;
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

await buildIfStale();
if (isStale('apps/simulator/dist/cli.js', ['apps/simulator/src', 'apps/simulator/build.mjs', 'packages/shared/src'])) {
  console.log('Building the simulator…');
  if ((await run('npm', ['run', 'build', '-w', 'apps/simulator'])) !== 0) process.exit(1);
}
// With MQTT_URL the server uses that broker instead of its embedded one on MQTT_PORT.
const mqttUrl = process.env.MQTT_URL ?? `mqtt://127.0.0.1:${MQTT_PORT}`;
const ports = process.env.MQTT_URL ? { PORT } : { PORT, MQTT_PORT };
for (const [what, port] of Object.entries(ports)) {
  if (await answers(port)) await fail(`Port ${port} is already in use (another server?); set ${what} to a free port.`);
}

const server = start('apps/server/dist/main.js', [], {
  DATA_DIR,
  ADMIN_USERNAME: ADMIN.name,
  ADMIN_PASSWORD: ADMIN.password,
  PORT: String(PORT),
  MQTT_PORT: String(MQTT_PORT),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
server.on('exit', (code) => {
  if (stopping) return;
  console.error(`The server stopped (exit code ${code}).`);
  void stop(code || 1);
});
await waitForHealth();

const token = await signIn();
await call('POST', 'tenant', token, { document: { name: { name: ENTITY, description: 'Demo fleet' } } }, [201, 409]);
for (const a of ACCOUNTS) await ensureAccount(token, a);
const credentials = [];
for (let i = 0; i < DEVICE_COUNT; i += 10) {
  const batch = Array.from({ length: Math.min(10, DEVICE_COUNT - i) }, (_, k) => deviceWithSecret(token, i + k));
  credentials.push(...(await Promise.all(batch)));
}
const simulated = credentials.slice(0, DEVICE_COUNT - SILENT_DEVICES);
const silent = credentials.slice(DEVICE_COUNT - SILENT_DEVICES).map((c) => c.name);
const credentialsFile = path.join(DATA_DIR, 'demo-devices.json');
fs.writeFileSync(credentialsFile, `${JSON.stringify(simulated, null, 2)}\n`, { mode: 0o600 });

const rel = (p) => path.relative(process.cwd(), p) || '.';
const pad = (s) => s.padEnd(15);
console.log(`
  Fleet Console demo
  ──────────────────
  Console   http://localhost:${PORT}
  Accounts  ${pad(ADMIN.name)} ${pad(process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : ADMIN.password)} superadmin
${ACCOUNTS.map((a) => `            ${pad(a.name)} ${pad(a.password)} ${a.subtype} of entity ${ENTITY}`).join('\n')}
  MQTT      ${mqttUrl}  (${simulated.length} simulated devices; their credentials: ${rel(credentialsFile)})
  Devices   ${DEVICE_COUNT} in entity ${ENTITY}; ${silent.join(', ')} never connect, so the console
            shows them unresponsive once 20 minutes have passed since they were registered
  Data      ${rel(DATA_DIR)} (delete it to start over; ./data is not touched)

  Stop with Ctrl-C.
`);
start('apps/simulator/dist/cli.js', ['--credentials', credentialsFile, '--url', mqttUrl, ...SIMULATOR_ARGS], {});

/** Devices first, so each says it goes offline while the server still listens; then the server. */
async function stop(code) {
  if (stopping) {
    for (const c of children) c.kill('SIGKILL');
    process.exit(1);
  }
  stopping = true;
  for (const c of [...children].reverse()) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGTERM');
    await exited;
  }
  process.exit(code);
}

/**
 * A node child in its own process group, so Ctrl-C reaches this script alone and it stops the
 * children in order (the exit handler above kills them if this script fails).
 */
function start(script, args, env) {
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: 'inherit',
    detached: true,
  });
  children.push(child);
  return child;
}

function fail(message) {
  console.error(message);
  return stop(1);
}

function answers(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForHealth() {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  await fail('The server did not answer /healthz within 60 s.');
}

/** One API call; answers the JSON body when the status is one of `ok`, and stops the demo otherwise. */
async function call(method, p, token, body, ok = [200, 201]) {
  const res = await fetch(`${base}/api/v1/${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => null);
  if (!ok.includes(res.status)) {
    await fail(`${method} /api/v1/${p} answered ${res.status}: ${json?.errorInfo?.userMessage ?? 'no message'}`);
  }
  return { status: res.status, body: json };
}

async function signIn() {
  const res = await call('POST', 'login', null, ADMIN, [200, 401]);
  if (res.status === 401) {
    // The superadmin is created with ADMIN_PASSWORD only on the first start with an empty database.
    await fail(`${rel(DATA_DIR)} has a superadmin ${ADMIN.name} with another password: delete ${rel(DATA_DIR)}, or set
ADMIN_PASSWORD to the password of its first run, and start again.`);
  }
  return res.body.access_token;
}

/** Creates the account, or gives an existing one the demo's password and role, so what is printed is true. */
async function ensureAccount(token, { name, password, subtype, access }) {
  const document = { name, email: `${name}@example.com`, password, subtype, entity: ENTITY, access };
  const res = await call('POST', `tenant/${ENTITY}/account`, token, { document }, [201, 409]);
  if (res.status === 409) {
    await call('PUT', `account/${name}`, token, { operator: { $set: { password, subtype, entity: ENTITY, access } } });
  }
}

/** Registers device `i`, or regenerates the secret of the one registered by an earlier run. */
async function deviceWithSecret(token, i) {
  const name = deviceId(i);
  const document = { name, description: `Demo dispenser ${i + 1}`, manufacturing_type: i % 4 === 0 ? 'CC2' : 'CC1' };
  const created = await call('POST', `tenant/${ENTITY}/device`, token, { document }, [201, 409]);
  if (created.status === 201) return { name, entity: ENTITY, password: created.body.data.mqtt.password };
  const renewed = await call('POST', `tenant/${ENTITY}/device/${name}/credentials`, token);
  return { name, entity: ENTITY, password: renewed.body.data.password };
}
