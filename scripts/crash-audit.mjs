#!/usr/bin/env node
// Kill -9 of the server during a burst of device creations (issue 26): every creation the client
// saw acknowledged (201) has its `device.create` audit entry, and no entry exists without its
// device. Spawns the built server (apps/server/dist/main.js: `npm run build` first) on a new data
// directory, kills it with SIGKILL mid-burst, then reads the database directly.
//
//   node scripts/crash-audit.mjs [runs=20]     (PGlite; with DATABASE_URL, that PostgreSQL)
//
// The integration suite runs two of these runs (apps/server/test/integration/audit-crash.test.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
export const ADMIN = { name: 'crash_admin', password: 'crash-admin-password-1' };

/** @returns {Promise<number>} */
export const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });

/**
 * The built server as its own process on `dataDir` (or on `databaseUrl`, a PostgreSQL database
 * of its own), alone: never on the broker, Redis or database a calling test suite runs on, where
 * it would join that suite's cluster. Resolves once /readyz answers.
 */
/**
 * @param {string} dataDir
 * @param {number} port
 * @param {string} [databaseUrl]
 * @param {Record<string, string>} [env] more settings (crash-rollout.mjs: a fixed MQTT port)
 */
export async function startServer(dataDir, port, databaseUrl, env = {}) {
  const { DATABASE_URL: _db, MQTT_URL: _mqtt, REDIS_URL: _redis, ...inherited } = process.env;
  const proc = spawn(process.execPath, ['dist/main.js'], {
    cwd: serverDir,
    env: {
      ...inherited,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'error',
      MQTT_PORT: '0',
      RATE_LIMIT_ENABLED: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Up to 2 minutes: a fresh PGlite's initdb and migrations take that long on a loaded 2-core box.
  for (let i = 0; i < 4800; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return proc;
    await new Promise((r) => setTimeout(r, 25));
  }
  proc.kill('SIGKILL');
  throw new Error('server did not become ready');
}

/**
 * The rows of each query, from the database the server used (PGlite in `dataDir`, or
 * `databaseUrl`), on one connection: a PGlite opened on a killed server's files recovers them
 * first, which costs as much as its start, so it is opened once for all the queries.
 * @param {string} dataDir
 * @param {string | undefined} databaseUrl
 * @param {[string, unknown[]][]} queries
 * @returns {Promise<Record<string, any>[][]>}
 */
export async function read(dataDir, databaseUrl, queries) {
  /** @type {Record<string, any>[][]} */
  const answers = [];
  if (databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const [query, params] of queries) answers.push((await client.query(query, params)).rows);
      return answers;
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // The server's extensions: a plan may use an index of their operator classes (migration 0029).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
  const db = new PGlite(path.join(dataDir, 'pgdata'), { extensions: { pg_trgm, btree_gin } });
  try {
    for (const [query, params] of queries) answers.push((await db.query(query, params)).rows);
    return answers;
  } finally {
    await db.close();
  }
}

/**
 * One run: a server on a new data directory (or on `databaseUrl`), an entity, then device
 * creations 8 at a time until SIGKILL lands `killAfterMs` into the burst. Answers the counts and
 * any violation found. The server is killed whatever happens.
 */
/** @param {{ killAfterMs?: number, databaseUrl?: string }} [options] */
export async function crashRun({ killAfterMs = 50 + Math.random() * 300, databaseUrl } = {}) {
  // A new data directory: the built server starts it from its migrated template (dist/pgdata-template).
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-crash-'));
  const port = await freePort();
  const proc = await startServer(dataDir, port, databaseUrl);
  try {
    return await burstAndKill(proc, port, dataDir, databaseUrl, killAfterMs);
  } finally {
    proc.kill('SIGKILL');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * @param {import('node:child_process').ChildProcess} proc
 * @param {number} port
 * @param {string} dataDir
 * @param {string | undefined} databaseUrl
 * @param {number} killAfterMs
 */
async function burstAndKill(proc, port, dataDir, databaseUrl, killAfterMs) {
  const base = `http://127.0.0.1:${port}/api/v1`;
  /** @type {(p: string, body: unknown, token?: string) => Promise<Response>} */
  const post = (p, body, token) =>
    fetch(base + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  const { access_token: token } = /** @type {{ access_token: string }} */ (await (await post('/login', ADMIN)).json());
  const entity = `crash_${Math.random().toString(16).slice(2, 10)}`;
  const made = await post('/tenant', { document: { name: { name: entity, description: '' } } }, token);
  if (made.status !== 201 && made.status !== 200) throw new Error(`entity: ${made.status}`);
  /** @type {string[]} */
  const acked = [];
  /** @type {string[]} */
  const tried = [];
  let killed = false;
  const worker = async () => {
    while (!killed) {
      const name = Array.from({ length: 12 }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
      tried.push(name);
      try {
        const res = await post(`/tenant/${entity}/device`, { document: { name, description: 'crash' } }, token);
        if (res.status === 201) acked.push(name);
      } catch {
        return; // the connection died with the server
      }
    }
  };
  const exited = new Promise((r) => proc.once('exit', r));
  const burst = Promise.all(Array.from({ length: 8 }, worker));
  // The kill lands `killAfterMs` after the first acknowledged creation, mid-burst.
  for (const until = Date.now() + 10_000; acked.length === 0 && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, killAfterMs));
  proc.kill('SIGKILL');
  killed = true;
  await exited;
  await burst;
  const [deviceRows = [], entryRows = []] = await read(dataDir, databaseUrl, [
    ['select name from devices where entity = $1', [entity]],
    ["select target_name from audit_entries where entity = $1 and action = 'device.create'", [entity]],
  ]);
  const devices = deviceRows.map((r) => r.name);
  const entries = entryRows.map((r) => r.target_name);
  const stored = new Set(devices);
  const logged = new Set(entries);
  return {
    acked: acked.length,
    stored: devices.length,
    entries: entries.length,
    ackedWithoutEntry: acked.filter((n) => !logged.has(n)),
    entryWithoutDevice: entries.filter((n) => !stored.has(n)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 20);
  let bad = 0;
  const started = Date.now();
  for (let i = 1; i <= runs; i++) {
    const t0 = Date.now();
    // With DATABASE_URL, that PostgreSQL database (its own: the server migrates and seeds it).
    const r = await crashRun({ databaseUrl: process.env.DATABASE_URL });
    const ok = r.ackedWithoutEntry.length === 0 && r.entryWithoutDevice.length === 0;
    if (!ok) bad++;
    console.log(
      `run ${i}: ${r.acked} acknowledged, ${r.stored} stored, ${r.entries} entries, ${Date.now() - t0} ms` +
        (ok ? '' : ` FAILED ${JSON.stringify(r)}`),
    );
  }
  console.log(`${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s, ${bad} with a violation`);
  process.exit(bad === 0 ? 0 : 1);
}
