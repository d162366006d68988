// Shared helpers for the bench scripts: child processes, readiness, ports, stats, tables, cleanup.
// Every child, temp dir and extra resource is registered so that cleanup() releases it on success,
// on error and on Ctrl-C / SIGTERM: a bench must never leave a server or a data dir behind.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Statistics and table printing live in report.mjs (no process state); re-exported for one import.
export * from './report.mjs';
import { SERVER_PROCESS_ENV, SERVER_NODE_FLAGS, serverBuildIsStale } from '../scripts/lib.mjs';
// The server's node options and environment as `npm start` passes them.
export { SERVER_PROCESS_ENV, SERVER_NODE_FLAGS };

export const root = path.resolve(import.meta.dirname, '..');
export const serverDist = path.join(root, 'apps/server/dist/main.js');
export const HOST = '127.0.0.1'; // loopback only, always
export const ADMIN = { name: 'admin', password: 'bench-password-1' };

const children = new Set();
const tmpDirs = new Set();
const extras = []; // async closers, e.g. a browser

/** The load averages (1, 5, 15 min) as "1.23 4.56 7.89": printed so a noisy run can be recognised. */
export const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The number after `--name=` on the command line, or `dflt`. */
export const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);

/** A new empty directory under os.tmpdir(), removed by cleanup(). */
export function tmpDir(prefix = 'fleet-bench-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tmpDirs.add(dir);
  return dir;
}

/** Registers a closer that cleanup() runs (errors ignored). */
export const onCleanup = (fn) => void extras.push(fn);

/** A TCP port that was free on 127.0.0.1 a moment ago (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().unref().on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node ...args` with piped output: the last 64 kB of stdout+stderr on `child.output` (to
 * show why something failed), stdout alone on `child.stdoutText` (≤ 1 MB, e.g. a JSON result).
 */
export function spawnNode(args, { env = {}, cwd = root } = {}) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.output = '';
  child.stdoutText = '';
  const keep = (chunk) => void (child.output = (child.output + chunk).slice(-65_536));
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    keep(chunk);
    if (child.stdoutText.length < 1_048_576) child.stdoutText += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', keep);
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

/** Stops one child we started: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stop(child, graceMs = 5000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

/** One GET on a fresh connection; resolves with {status, body}, rejects on a socket error. */
export function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject).setTimeout(5000, () => req.destroy(new Error('timeout')));
  });
}

/**
 * Polls `url` every `intervalMs` until it answers 200, bounded by `timeoutMs` and by the child's
 * death (no point polling a crashed process). Resolves with the performance.now() of that 200.
 */
export async function waitFor200(url, { child, timeoutMs = 60_000, intervalMs = 2 } = {}) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`child exited (${child.exitCode}) before ${url} answered:\n${child.output}`);
    try {
      if ((await get(url)).status === 200) return performance.now();
    } catch {
      // ECONNREFUSED until the server listens: expected, keep polling.
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${child?.output ?? ''}`);
}

/** Builds the server bundle when missing; when stale, warns (others are editing) unless rebuild. */
export async function ensureServerBuilt({ rebuild = false } = {}) {
  const stale = serverBuildIsStale();
  if (fs.existsSync(serverDist) && !(rebuild && stale)) {
    if (stale)
      console.log('note: apps/server/dist/main.js is older than its sources; pass --rebuild to rebuild it first');
    return;
  }
  console.log('building apps/server …');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/server'], { cwd: root, stdio: 'inherit', timeout: 120_000 });
  if (r.status !== 0) throw new Error('npm run build -w apps/server failed');
}

/**
 * Starts the built server (`script`: another build's main.js, e.g. of an older commit) on a free
 * loopback port with a new DATA_DIR; resolves once /healthz is 200.
 */
export async function startDistServer({ env = {}, args = [], script = serverDist } = {}) {
  const port = await freePort();
  const child = spawnNode([...SERVER_NODE_FLAGS, ...args, script], {
    env: {
      ...SERVER_PROCESS_ENV,
      PORT: String(port),
      HOST,
      DATA_DIR: tmpDir('fleet-bench-data-'),
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The embedded broker on a free port: 1883 may be taken (a demo, another bench).
      MQTT_PORT: '0',
      ...env,
    },
  });
  const url = `http://${HOST}:${port}`;
  await waitFor200(`${url}/healthz`, { child, timeoutMs: 60_000, intervalMs: 50 });
  return { child, url, port };
}

/** Resolves with the first JSON line a child prints on stdout (its "ready" line); rejects if it exits first. */
export function readyLine(child, label, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${label} not ready in ${timeoutMs / 1000} s\n${child.output}`)),
      timeoutMs,
    );
    child.stdout.on('data', () => {
      const line = child.stdoutText.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`${label} exited ${code}\n${child.output}`)));
  });
}

/** POST /api/v1/login; resolves with the parsed answer, throws on a non-200. */
export async function login(url, creds = ADMIN) {
  const res = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(creds),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; undefined elsewhere).
 * CPU per request barely moves when other work shares the box; req/s does.
 */
export function cpuTimeMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the name may contain spaces
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // utime + stime
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

// ---- lifecycle ---------------------------------------------------------------------------------

/** Closes extras, kills every child still running, removes every temp dir. Safe to call twice. */
export async function cleanup() {
  for (const fn of extras.splice(0))
    await Promise.resolve()
      .then(fn)
      .catch(() => {});
  await Promise.all([...children].map((c) => stop(c)));
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  tmpDirs.clear();
}

/** Runs a bench body with cleanup on success, on error and on Ctrl-C / SIGTERM. */
export async function main(body) {
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  try {
    await body();
  } catch (err) {
    console.error(err?.stack ?? err);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}
