import fs from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { serverRoot } from '../lib/paths.ts';
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
  close(): Promise<void>;
}

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

async function openPglite(dir: string): Promise<Database> {
  await fs.mkdir(dir, { recursive: true });
  // pg_trgm backs substring search on device ids and descriptions.
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  await client.exec(`set random_page_cost = ${RANDOM_PAGE_COST}`);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  };
}

// Any constant; it only has to be the same for every instance migrating one database.
const MIGRATION_LOCK = 7_342_001;

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c random_page_cost=${RANDOM_PAGE_COST}` });
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
  return {
    db: drizzlePg(pool, { schema }) as unknown as Db,
    kind: 'postgres',
    ping: async () => void (await pool.query('select 1')),
    close: () => pool.end(),
  };
}
