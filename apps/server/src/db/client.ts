import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { serverRoot } from '../lib/paths.ts';
import { type DbSnapshot, startPgliteWorker } from './pglite-thread.ts';
import { PoolProbe } from './pool-probe.ts';
import { prioritisePool } from './prioritise-pool.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; it runs the same queries as `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Answers when the database takes a trivial query. */
  ping(): Promise<void>;
  /** The connection pool's use and every query's duration, for the metrics (pool-probe.ts). */
  probe: PoolProbe;
  /** The embedded database only: a consistent copy for a backup, taken while it runs. */
  snapshot?: () => Promise<DbSnapshot>;
  close(): Promise<void>;
}

/**
 * The databases autovacuum looks after (PostgreSQL; PGlite runs none), whose visibility map lets
 * an index-only scan skip the table: the device list's deferred join counts on it.
 */
const vacuumed = new WeakSet<Executor>();
/** Whether `db` is a PostgreSQL server's, where autovacuum keeps the visibility map. */
export const keepsVisibilityMap = (db: Executor) => vacuumed.has(db);

/** Where the SQL migrations live. */
export function migrationsFolder(): string {
  return path.join(serverRoot(), 'drizzle');
}

/** Opens PostgreSQL when a URL is given, else PGlite in `dataDir`, and applies migrations. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(path.join(opts.dataDir, 'pgdata'));
}

/**
 * Our sessions plan for storage where a random read costs about what a sequential one does
 * (SSD, or PGlite's files in the page cache). With PostgreSQL's default of 4 the planner
 * prefers scanning all 100,000 devices over the trigram indexes for a search: 140 ms instead
 * of 20 ms. Only this application's sessions get the setting.
 */
const RANDOM_PAGE_COST = 1.1;

/**
 * PGlite's server settings (postgresql.conf lines). Its shared buffers live in the WebAssembly
 * heap, which never shrinks: PostgreSQL's default of 128 MB was a quarter of the idle server's
 * memory. With 16 MB the idle RSS drops by about 110 MB; pages past that are read from files
 * the operating system keeps cached.
 */
const PGLITE_SETTINGS = [`random_page_cost = ${RANDOM_PAGE_COST}`, 'shared_buffers = 16MB'];

/**
 * PGlite runs in a worker thread and answers the PostgreSQL protocol on a private socket; the
 * server reaches it with the same driver as PostgreSQL, through a pool of one connection
 * (PGlite is a single session: a transaction holds it, everything else waits, as before).
 */
async function openPglite(dir: string): Promise<Database> {
  const thread = await startPgliteWorker({
    dir,
    settings: PGLITE_SETTINGS,
    template: path.join(serverRoot(), 'dist', 'pgdata-template'),
    migrationsFolder: migrationsFolder(),
  });
  const pool = new pg.Pool({
    host: thread.socketDir,
    port: thread.port,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
  });
  // An operator's queries take the one connection before queued background work.
  const probe = new PoolProbe(pool, prioritisePool(pool));
  pool.on('error', () => {
    // The connection broke (the worker stopped); the pool opens a new one on the next query.
  });
  try {
    await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: migrationsFolder() });
  } catch (err) {
    await pool.end().catch(() => undefined);
    await thread.close();
    throw err;
  }
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    kind: 'pglite',
    probe,
    snapshot: () => thread.snapshot(),
    ping: async () => void (await pool.query('select 1')),
    close: async () => {
      await pool.end().catch(() => undefined);
      await thread.close();
    },
  };
}

// Any constant; it only has to be the same for every instance migrating one database.
const MIGRATION_LOCK = 7_342_001;

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c random_page_cost=${RANDOM_PAGE_COST}` });
  // As on PGlite; with ten connections the lane only orders callers when all ten are taken.
  const probe = new PoolProbe(pool, prioritisePool(pool));
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  const lock = await pool.connect();
  try {
    // Several instances may start together; one migrates while the others wait.
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(pool, { schema }), { migrationsFolder: migrationsFolder() });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release();
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  vacuumed.add(db);
  return {
    db,
    kind: 'postgres',
    probe,
    ping: async () => void (await pool.query('select 1')),
    close: () => pool.end(),
  };
}
