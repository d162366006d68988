// @ts-check
// The embedded database's thread: PGlite, served to the server's main thread over the PostgreSQL
// protocol on a private Unix socket, so node-postgres talks to it exactly as to PostgreSQL and
// no query's CPU runs on the event loop that answers requests and MQTT.
import { constants, cpSync, mkdirSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { usableTemplate } from './pgdata-template.js';
import { serve } from './pglite-serve.js';
import { countRows } from '../backup/row-counts.js';

/** @type {import('./pglite-thread.ts').PgliteWorkerData} */
const data = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** @returns {Promise<PGlite>} */
async function open() {
  await fs.mkdir(data.dir, { recursive: true });
  const empty = (await fs.readdir(data.dir)).length === 0;
  const template = empty && data.template ? usableTemplate(data.template, data.migrationsFolder) : undefined;
  // Synchronous: this thread has nothing else to do yet, and 1,000 small files copy 3× faster so.
  if (template) cpSync(template, data.dir, { recursive: true });
  // pg_trgm backs substring search on device ids and descriptions; btree_gin puts the entity in
  // the same GIN index (migration 0029).
  const db = await PGlite.create(data.dir, {
    extensions: { pg_trgm, btree_gin },
    postgresqlconf: data.settings,
    pgliteWasmModule: data.wasmModule,
  });
  return db;
}

const db = await open();
const { server, drained, whenIdle } = serve(db);
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(data.socketPath, () => resolve(undefined));
});
port.postMessage({ ready: true });
/**
 * The data directory copied to `DATA_DIR/pgdata.snapshot` between transactions, with the row count
 * of every table and the migrations applied. A copy of the files (a reflink where the file system
 * has them) rather than PGlite's dumpDataDir: at 100,000 devices that read every file through the
 * WebAssembly file system into one tar in memory and paused the database for 34 s.
 */
async function snapshot() {
  const copy = `${data.dir}.snapshot`;
  // A copy left by a backup whose server was killed.
  rmSync(copy, { recursive: true, force: true });
  return whenIdle(async () => {
    const rows = await countRows(db);
    // Written pages reach the files now rather than after the restore replays the log.
    await db.exec('checkpoint');
    mkdirSync(copy, { mode: 0o700 });
    cpSync(data.dir, copy, { recursive: true, mode: constants.COPYFILE_FICLONE });
    return { dir: copy, rows };
  });
}

port.on('message', async (/** @type {{ close?: boolean, snapshot?: number }} */ m) => {
  if (m.snapshot !== undefined) {
    const id = m.snapshot;
    snapshot().then(
      (s) => port.postMessage({ snapshot: id, ...s }),
      (err) => port.postMessage({ snapshot: id, error: String(err?.message ?? err) }),
    );
    return;
  }
  if (!m.close) return;
  server.close();
  // What was sent before the pool ended is answered (and written) first.
  await drained();
  await db.close();
  port.postMessage({ closed: true });
});
