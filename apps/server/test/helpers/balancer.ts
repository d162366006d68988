import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { build as esbuild } from 'esbuild';
import { serverBuildIsStale } from '../../../../scripts/lib.mjs';
import { chromium } from 'playwright-core';
import { ADMIN, createTestDatabase, type TestServer } from './server.ts';
import { upload } from './uploads.ts';

/**
 * API instances as their own processes (so one can be killed with SIGKILL) on one PostgreSQL
 * database, Redis and Mosquitto, behind a HAProxy from Debian running the configuration shipped
 * in docs/deploy/haproxy.cfg, on loopback ports picked here.
 */

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Debian's haproxy, or '' when it is not installed. */
export function haproxyPath(): string {
  for (const p of ['haproxy', '/usr/sbin/haproxy']) {
    if (spawnSync(p, ['-v'], { stdio: 'ignore' }).status === 0) return p;
  }
  return '';
}

export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Resolves when the process has exited (at once if it has). */
  exited: Promise<void>;
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  // Up to 45 s: a second on a quiet box, many more on a busy one.
  const until = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`an instance exited early:\n${output()}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`an instance was not ready in 45 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The server's entry point for the instances: the built one when it is newer than its sources (CI
 * builds it before this tier); otherwise the sources bundled here as the build does (a few
 * seconds), since three instances each compiling them through tsx take a minute on a busy box.
 */
async function serverEntry(): Promise<{ main: string; cleanup(): Promise<void> }> {
  if (!serverBuildIsStale()) return { main: path.join(SERVER_DIR, 'dist/main.js'), cleanup: async () => {} };
  const outdir = path.join(SERVER_DIR, '.tmp', `lb-${process.pid}-${Date.now()}`);
  const pkg = JSON.parse(await fs.readFile(path.join(SERVER_DIR, 'package.json'), 'utf8'));
  const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@fleet/'));
  await esbuild({
    entryPoints: [path.join(SERVER_DIR, 'src/main.ts')],
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: [...external, ...external.map((name) => `${name}/*`)],
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return { main: path.join(outdir, 'main.js'), cleanup: () => fs.rm(outdir, { recursive: true, force: true }) };
}

function spawnInstance(
  main: string,
  name: string,
  port: number,
  env: Record<string, string>,
): Instance & { ready: Promise<void> } {
  const child = spawn(process.execPath, [main], {
    cwd: SERVER_DIR,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  for (const s of [child.stdout!, child.stderr!])
    s.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  const url = `http://127.0.0.1:${port}`;
  return { name, port, url, child, exited, ready: waitReady(url, child, () => out) };
}

/**
 * `count` API instances on one new database (scale mode's services from the environment), one
 * shared-subscription group and one data directory (the blob store, as a shared volume would be).
 */
export async function startInstances(count: number, extraEnv: Record<string, string> = {}) {
  const { DATABASE_URL, REDIS_URL, MQTT_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL || !MQTT_URL) throw new Error('scale mode only (scripts/ci/with-services.sh)');
  const entry = await serverEntry();
  const database = await createTestDatabase(DATABASE_URL);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-lb-'));
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    MQTT_URL,
    MQTT_SHARE_GROUP: `fleet-lb-${path.basename(dataDir).slice(-6)}`,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    JWT_SECRET: 'load-balancer-test-secret-shared-by-every-instance',
    ADMIN_USERNAME: ADMIN.name,
    ADMIN_PASSWORD: ADMIN.password,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const instances: Instance[] = [];
  const close = async () => {
    for (const i of instances) if (i.child.exitCode === null) i.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    await entry.cleanup();
  };
  try {
    // The first one alone: it creates the superadmin; the others then find it.
    const first = spawnInstance(entry.main, 'api1', await freePort(), env);
    instances.push(first);
    await first.ready;
    const rest = [];
    for (let i = 2; i <= count; i++) rest.push(spawnInstance(entry.main, `api${i}`, await freePort(), env));
    instances.push(...rest);
    await Promise.all(rest.map((r) => r.ready));
  } catch (err) {
    await close();
    throw err;
  }
  return { instances, close };
}

/** The configuration shipped for deployments (docs/operations.md, "Behind a load balancer"). */
export const SHIPPED_CONFIG = path.resolve(SERVER_DIR, '../../docs/deploy/haproxy.cfg');

/**
 * The shipped configuration in front of `servers` on loopback: its `server` lines at the test's
 * ports (by name, the rest of each line kept), its `bind` lines and HTTPS redirect replaced by one
 * loopback port (no TLS here), plus a stats page and an `X-Served-By` header naming the instance
 * that answered, which the test reads.
 */
export function haproxyConfig(
  shipped: string,
  o: { port: number; statsPort: number; servers: Array<{ name: string; port: number }> },
) {
  const named = new Map(o.servers.map((s) => [s.name, s.port]));
  const lines = shipped
    .split('\n')
    .filter((l) => !/^\s*bind\s|redirect scheme https/.test(l))
    .flatMap((l) => {
      if (l === 'frontend fleet') return [l, `  bind 127.0.0.1:${o.port}`, '  http-response set-header X-Served-By %s'];
      const server = /^(\s*server (\S+) )\S+(.*)$/.exec(l);
      if (!server) return [l];
      const port = named.get(server[2]!);
      return port ? [`${server[1]}127.0.0.1:${port}${server[3]}`] : [];
    });
  for (const s of o.servers)
    if (!lines.some((l) => l.startsWith(`  server ${s.name} `))) throw new Error(`${SHIPPED_CONFIG} has no ${s.name}`);
  return `${lines.join('\n').trimEnd()}

listen stats
  bind 127.0.0.1:${o.statsPort}
  stats enable
  stats uri /
`;
}

export interface Balancer {
  url: string;
  /** Each server's state as HAProxy sees it: UP, DOWN, or a transition ("UP 1/2"). */
  states(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** Runs `haproxy -db` on a generated config in front of the instances; resolves once every one is UP. */
export async function startBalancer(haproxy: string, instances: Instance[]): Promise<Balancer> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-haproxy-'));
  const cfg = path.join(dir, 'haproxy.cfg');
  await fs.writeFile(
    cfg,
    haproxyConfig(await fs.readFile(SHIPPED_CONFIG, 'utf8'), { port, statsPort, servers: instances }),
  );
  const child = spawn(haproxy, ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const states = async () => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/;csv`)).text();
    const [head, ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const cols = head!.split(',');
    const [px, sv, st] = ['pxname', 'svname', 'status'].map((c) => cols.indexOf(c));
    const out: Record<string, string> = {};
    for (const r of rows.map((l) => l.split(','))) if (r[px!] === 'fleet_api') out[r[sv!]!] = r[st!]!;
    return out;
  };
  const close = async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    await fs.rm(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${err}`);
    const up = await states().then(
      (s) => instances.every((i) => s[i.name] === 'UP'),
      () => false,
    );
    if (up) break;
    if (Date.now() > until) {
      await close();
      throw new Error(`haproxy did not see every instance UP in 15 s:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, states, close };
}

/** Chromium and the built console, for what the user sees (CI has both: npm test builds the console first). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WEB_INDEX = path.resolve(SERVER_DIR, '../web/dist/index.html');
/** Where the load-balancer tests' screenshots go. */
export const SHOTS = path.resolve(SERVER_DIR, '../../.tmp/shots');

/**
 * What a load-balancer test needs: scale mode's services and HAProxy (it throws without them), and
 * whether Chromium and the built console are there for its browser part (a warning when not).
 */
export function balancerPrerequisites(tag: string): { haproxy: string; mqttUrl: string; browserReady: boolean } {
  const { DATABASE_URL, REDIS_URL, MQTT_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL || !MQTT_URL) {
    throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
  }
  const haproxy = haproxyPath();
  if (!haproxy) throw new Error('The load-balancer test needs HAProxy (apt-get install haproxy; .ci/run installs it)');
  const browserReady = fsSync.existsSync(CHROMIUM) && fsSync.existsSync(WEB_INDEX);
  if (!browserReady) {
    console.warn(
      `[${tag}] THE BROWSER PART IS SKIPPED: it needs Chromium at ${CHROMIUM} and the built console at ${WEB_INDEX} (npm run build -w apps/web)`,
    );
  }
  // Devices reach the broker directly, not through the balancer.
  return { haproxy, mqttUrl: `mqtt://${new URL(MQTT_URL).host}`, browserReady };
}

/** Headless Chromium from Debian. */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

/** When `cond` holds (polled), or an error naming `what` after `ms`. */
export async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `count` entity-level files of 100 bytes, `data/f<i>.bin` on the device, uploaded through `url`. */
export async function uploadEntityFiles(url: string, token: string, entity: string, count: number) {
  const through = { url } as TestServer;
  for (let i = 0; i < count; i++) {
    const res = await upload(through, `/api/v1/tenant/${entity}/files`, token, {
      fields: { level: 'entity', entity_id: entity, file_device_path: `data/f${i}.bin` },
      filename: `f${i}.bin`,
      bytes: 100,
    });
    if (res.status !== 201) throw new Error(`upload of f${i}.bin: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
