import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrationsFingerprint } from '../src/db/pgdata-template.js';
import { migrationsFolder, openDatabase } from '../src/db/client.ts';

/**
 * PGlite's initdb takes seconds; pay it once. This builds a migrated template data dir that each
 * test file copies. With DATABASE_URL set (scale mode) it builds a migrated template database
 * instead, which each test server's database is created from (CREATE DATABASE ... TEMPLATE).
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    console.log(`[integration] scale mode: PostgreSQL at ${new URL(process.env.DATABASE_URL).host}`);
    project.provide('pgTemplate', await createPostgresTemplate(process.env.DATABASE_URL));
    return;
  }
  const dir = await createPgliteTemplate();
  project.provide('pgliteTemplate', dir);
  // The data directories of the workers' shared servers (helpers/shared-server.ts), which no file closes.
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-shared-'));
  project.provide('integrationScratch', scratch);
  return async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(scratch, { recursive: true, force: true });
  };
}

/** A migrated PGlite data dir for test servers to copy. */
export async function createPgliteTemplate(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-template-'));
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  return dir;
}

// Any constant: it serialises the projects' global setups that share one PostgreSQL cluster.
const TEMPLATE_LOCK = 7_342_024;

/**
 * A migrated PostgreSQL database named after the migrations' fingerprint, made once per cluster:
 * creating a test database from it is a file copy instead of running every migration (the
 * migrator then finds them all applied). Returns its name.
 */
export async function createPostgresTemplate(url: string): Promise<string> {
  const name = `fleet_tpl_${migrationsFingerprint(migrationsFolder()).slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`create database ${name}`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      try {
        const database = await openDatabase({ databaseUrl: u.toString(), dataDir: os.tmpdir() });
        await database.close();
      } catch (err) {
        await admin.query(`drop database if exists ${name} with (force)`);
        throw err;
      }
    }
  } finally {
    await admin.end();
  }
  return name;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** Scale mode: the migrated database each test database is created from. */
    pgTemplate?: string;
    /** Embedded mode: where the workers' shared servers keep their data directories. */
    integrationScratch?: string;
  }
}
