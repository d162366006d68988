import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';

/**
 * PGlite's initdb takes seconds; pay it once. This builds a migrated template data dir that each
 * test file copies. With DATABASE_URL set (scale mode) each file creates its own database instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    console.log(`[integration] scale mode: PostgreSQL at ${new URL(process.env.DATABASE_URL).host}`);
    return;
  }
  const dir = await createPgliteTemplate();
  project.provide('pgliteTemplate', dir);
  return async () => fs.rm(dir, { recursive: true, force: true });
}

/** A migrated PGlite data dir for test servers to copy. */
export async function createPgliteTemplate(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-template-'));
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  return dir;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
