// npm run demo: the server on its own data directory (./data-demo, so ./data is never touched),
// an entity `demo` with an admin and an operator, and 50 devices of which 47 are simulated over
// MQTT. Idempotent: a second run reuses what exists and gives the devices fresh secrets.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { SERVER_NODE_FLAGS, SERVER_PROCESS_ENV, buildIfStale, isStale, root, run } from './lib.mjs';

const PORT = Number(process.env.PORT ?? 8080);
const MQTT_PORT = Number(process.env.MQTT_PORT ?? 1883);
const DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data-demo');
const ADMIN = { name: process.env.ADMIN_USERNAME ?? 'admin', password: process.env.ADMIN_PASSWORD ?? 'demo-admin' };
// Devices live 20 times faster than real time: a state report every 3 s, sleeps of seconds.
const SIMULATOR_ARGS = ['--seed', '1', '--time-scale', '20', '--status-every', '30'];

const base = `http://127.0.0.1:${PORT}`;
const rel = (p) => path.relative(process.cwd(), p) || '.';
const children = [];
let stopping = false;
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

await buildIfStale();
if (
  ['beacon-cli', 'demo-rollouts'].some((name) =>
    isStale(`apps/simulator/dist/${name}.js`, [
      'apps/simulator/src',
      'apps/simulator/build.mjs',
      'packages/shared/src',
    ]),
  )
) {
  console.log('Building the simulator…');
  if ((await run('npm', ['run', 'build', '-w', 'apps/simulator'])) !== 0) process.exit(1);
}
// With MQTT_URL the server uses that broker instead of its embedded one on MQTT_PORT.
const mqttUrl = process.env.MQTT_URL ?? `mqtt://127.0.0.1:${MQTT_PORT}`;
const ports = process.env.MQTT_URL ? { PORT } : { PORT, MQTT_PORT };
for (const [what, port] of Object.entries(ports)) {
  if (await answers(port)) await fail(`Port ${port} is already in use (another server?); set ${what} to a free port.`);
}

const SERVER_ENV = {
  DATA_DIR,
  ADMIN_USERNAME: ADMIN.name,
  ADMIN_PASSWORD: ADMIN.password,
  PORT: String(PORT),
  MQTT_PORT: String(MQTT_PORT),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
const firstServer = await startServer();

// The entity, accounts and devices, through the API (apps/simulator/src/demo-fleet.ts).
const fleetFile = path.join(DATA_DIR, 'demo-fleet.json');
const setup = await runChild('apps/simulator/dist/demo-setup.js', {
  DEMO_API_URL: base,
  DEMO_OUT: fleetFile,
  ADMIN_USERNAME: ADMIN.name,
  ADMIN_PASSWORD: ADMIN.password,
});
if (setup !== 0)
  await fail(`Setting up the demo fleet failed. If ${rel(DATA_DIR)} is from a run with another ADMIN_PASSWORD,
delete it or set ADMIN_PASSWORD to that run's password.`);
const { entity, accounts, simulated, silent, ward } = JSON.parse(fs.readFileSync(fleetFile, 'utf8'));
// 30 days of telemetry for the dispensers, written with SQL while the server is stopped (the
// embedded database is one process's); once per data directory, and it never duplicates a point.
const historyMark = path.join(DATA_DIR, 'demo-history.done');
if (!fs.existsSync(historyMark)) {
  const running = firstServer;
  running.replaced = true;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  await exited;
  children.splice(children.indexOf(running), 1);
  const history = await runChild('apps/server/dist/demo-history.js', SERVER_ENV, [fleetFile], SERVER_NODE_FLAGS);
  if (history !== 0) await fail('Writing the demo history failed.');
  fs.writeFileSync(historyMark, `${new Date().toISOString()}\n`);
  await startServer();
}
const credentialsFile = path.join(DATA_DIR, 'demo-devices.json');
fs.writeFileSync(credentialsFile, `${JSON.stringify(simulated, null, 2)}\n`, { mode: 0o600 });

const pad = (s) => s.padEnd(15);
console.log(`
  Fleet Console demo
  ──────────────────
  Console   http://localhost:${PORT}
  Accounts  ${pad(ADMIN.name)} ${pad(process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : ADMIN.password)} superadmin
${accounts.map((a) => `            ${pad(a.name)} ${pad(a.password)} ${a.subtype} of entity ${entity}`).join('\n')}
  MQTT      ${mqttUrl}  (${simulated.length} simulated devices; their credentials: ${rel(credentialsFile)})
  Devices   ${simulated.length + silent.length + ward.gateways.length} in entity ${entity}: ${simulated.length + silent.length} dispensers and ${ward.gateways.length} beacon gateways;
            ${silent.slice(0, -1).join(', ')} never connect (Last Updated: never); ${silent.at(-1)} ran flat
            eight days ago and never came back: its page's History shows the month before
  Audit     http://localhost:${PORT}/audit  (who did what: the setup above, and every action you take)
  Allocate  every device stands in a kiosk's dispenser: its row menu offers Allocate and Return Device
            (Lobby_Returns has room for returned devices)
  Provision a device's Provision button sends it the entity's 3 files (and the first group's map):
            watch each file's progress live in the modal
  Health    http://localhost:${PORT}/fleet  (devices online, unresponsive and never seen, battery, states,
            firmware; every bar opens the device list filtered to those devices)
  Rollouts  http://localhost:${PORT}/rollouts  (six CC1 devices in group Rollout_lab: Spring release 1.8.0
            finishes, Release candidate 1.9.0-rc1 fails its canary and pauses by its error threshold;
            they run as the demo starts, their lines follow)
  Beacons   http://localhost:${PORT}/beacon-demo  (${ward.gateways.length} gateways in rooms ${ward.gateways.map((g) => g.room).join(', ')}, ${ward.beacons.length} patients)
  Data      ${rel(DATA_DIR)} (delete it to start over; ./data is not touched)

  Stop with Ctrl-C.
`);
start('apps/simulator/dist/cli.js', ['--credentials', credentialsFile, '--url', mqttUrl, ...SIMULATOR_ARGS]);
// The beacon demo's gateways and patients (apps/simulator/src/demo-beacons.ts): /beacon-demo comes alive.
start('apps/simulator/dist/beacon-cli.js', [fleetFile, mqttUrl]);
// Two rollouts over six lab devices of their own (apps/simulator/src/demo-rollouts.ts): one finishes, one pauses.
start('apps/simulator/dist/demo-rollouts.js', [fleetFile, mqttUrl], undefined, {
  DEMO_API_URL: base,
  ADMIN_USERNAME: ADMIN.name,
  ADMIN_PASSWORD: ADMIN.password,
});

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
function start(script, args, nodeFlags = ['--enable-source-maps'], env = {}) {
  const child = spawn(process.execPath, [...nodeFlags, path.join(root, script), ...args], {
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

/** The server on the demo's data directory, answering /healthz; its unexpected exit ends the demo. */
async function startServer() {
  const child = start('apps/server/dist/main.js', [], SERVER_NODE_FLAGS, { ...SERVER_PROCESS_ENV, ...SERVER_ENV });
  child.on('exit', (code) => {
    if (stopping || child.replaced) return;
    console.error(`The server stopped (exit code ${code}).`);
    void stop(code || 1);
  });
  await waitForHealth();
  return child;
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

/** Runs a node script to its end; answers its exit code. */
function runChild(script, env, args = [], nodeFlags = ['--enable-source-maps']) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, path.join(root, script), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}
