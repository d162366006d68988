import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { makePrivateDir, restrictTree } from '../lib/private-files.ts';

/** PostgreSQL's socket naming: `<dir>/.s.PGSQL.<port>`; the port is only a name here. */
const SOCKET_PORT = 5432;
/** How long the worker gets to close PGlite (write its files) before it is stopped. */
const CLOSE_TIMEOUT_MS = 5_000;

/** What the worker (pglite-worker.js, plain JavaScript so it runs as is from src/ and dist/) is given. */
export interface PgliteWorkerData {
  /** PGlite's data directory. */
  dir: string;
  /** Where to listen (a path inside a directory only this user can enter). */
  socketPath: string;
  /**
   * The build's template (dist/pgdata-template): when `dir` is empty and the template was made
   * from the migrations in `migrationsFolder`, it is copied and the first start skips initdb.
   */
  template?: string;
  migrationsFolder: string;
  /** Server settings (postgresql.conf lines). */
  settings: string[];
  /** PGlite's WebAssembly, compiled once a process (`pgliteModule`). */
  wasmModule?: WebAssembly.Module;
}

export interface PgliteThread {
  /** The directory holding the socket, for node-postgres' `host`. */
  socketDir: string;
  port: number;
  /** A consistent copy of the data directory, taken between transactions. */
  snapshot(): Promise<DbSnapshot>;
  close(): Promise<void>;
}

/** The embedded database at one moment: a copy of its data directory, and each table's row count. */
export interface DbSnapshot {
  /** The copy (`DATA_DIR/pgdata.snapshot`): the snapshot's taker removes it when done. */
  dir: string;
  /** Rows per table (`drizzle.__drizzle_migrations` counts the migrations applied). */
  rows: Record<string, number>;
}

/** Node's WebAssembly global, which the server's TypeScript libraries declare only as types. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } })
  .WebAssembly;

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * PGlite's WebAssembly compiled once a process and handed to every database thread it starts.
 * Each thread compiling its own copy cost 1.1–1.7 CPU-s of V8's compiler threads (its code
 * compiled and then tiered up again as the first queries ran): paid once by a server, but by every
 * test server a process builds (bench/notes/suite-speed-2026-11-29.md, s24). A module shared
 * between threads shares its compiled and tiered-up code.
 */
function pgliteModule(): Promise<WebAssembly.Module> {
  compiled ??= fs
    .readFile(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm'))
    .then((bytes) => wasm.compile(bytes));
  return compiled;
}

/**
 * Starts PGlite on `dir` in a worker thread; resolves when it accepts connections. The data
 * directory is the server's alone: PGlite creates its files 0644 or 0666 (as an earlier version
 * left them), so the tree is made 0700/0600 once PGlite has opened it and again once it closed.
 */
export async function startPgliteWorker(opts: Omit<PgliteWorkerData, 'socketPath'>): Promise<PgliteThread> {
  await makePrivateDir(opts.dir);
  // mkdtemp makes the directory 0700: no other local user can reach the database.
  const socketDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-db-'));
  const workerData: PgliteWorkerData = {
    ...opts,
    socketPath: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    wasmModule: await pgliteModule(),
  };
  const worker = new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData });
  const cleanup = () => fs.rm(socketDir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the database thread exited (${code}) before it was ready`)));
      worker.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    });
  } catch (err) {
    await worker.terminate();
    await cleanup();
    throw err;
  }
  await restrictTree(opts.dir).catch(async (err: unknown) => {
    await worker.terminate();
    await cleanup();
    throw err;
  });
  worker.removeAllListeners('exit');
  worker.removeAllListeners('error');
  worker.on('error', () => {
    // Reported to the pool as a broken connection.
  });
  let snapshots = 0;
  return {
    socketDir,
    port: SOCKET_PORT,
    snapshot() {
      const id = ++snapshots;
      return new Promise<DbSnapshot>((resolve, reject) => {
        const onMessage = (m: { snapshot?: number; dir?: string; rows?: Record<string, number>; error?: string }) => {
          if (m.snapshot !== id) return;
          worker.off('message', onMessage);
          if (m.error !== undefined) reject(new Error(`database snapshot failed: ${m.error}`));
          else resolve({ dir: m.dir!, rows: m.rows! });
        };
        worker.on('message', onMessage);
        worker.postMessage({ snapshot: id });
      });
    },
    async close() {
      const closed = new Promise<void>((resolve) => {
        worker.on('message', (m: { closed?: boolean }) => m.closed && resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage({ close: true });
      await Promise.race([closed, new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
      await worker.terminate();
      await cleanup();
      await restrictTree(opts.dir);
    },
  };
}
