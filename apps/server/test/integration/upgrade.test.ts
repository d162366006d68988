import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../src/app.ts';
import { restoreBackup } from '../../src/backup/restore.js';
import { migrationsFolder, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { loadConfig } from '../../src/config.ts';

// Issue 30: a data directory made by the previous release's own code (scripts/make-upgrade-fixture.mjs,
// docs/operations.md "Upgrades") restores into this release, migrates, and keeps every row.
const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/upgrade/previous-release.tar.br');
const work: string[] = [];
afterAll(async () => {
  for (const dir of work) await fs.rm(dir, { recursive: true, force: true });
});

describe.runIf(!process.env.DATABASE_URL)('upgrade from the previous release', () => {
  it('migrates the fixture and finds every row, blob and sign-in of it', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-upgrade-'));
    work.push(dir);
    const dataDir = path.join(dir, 'data');
    const manifest = await restoreBackup(FIXTURE, dataDir, { migrationsFolder: migrationsFolder() });
    const journal = JSON.parse(await fs.readFile(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'));
    // The fixture must stay a release behind, or this test proves no upgrade.
    expect(manifest.migrations.count).toBeLessThan(journal.entries.length);

    const database = await openDatabase({ dataDir });
    try {
      const [applied] = rowsOf<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
      );
      expect(applied!.n).toBe(journal.entries.length);
      for (const [table, count] of Object.entries(manifest.rows)) {
        const [row] = rowsOf<{ n: number }>(
          await database.db.execute(sql.raw(`select count(*)::int as n from "${table}"`)),
        );
        expect({ table, count: row!.n }).toEqual({ table, count });
      }
      expect(manifest.rows.devices).toBeGreaterThan(0);
      expect(manifest.rows.device_telemetry).toBeGreaterThan(0);
      const keys = rowsOf<{ blob_key: string }>(await database.db.execute(sql`select blob_key from firmware`));
      expect(keys.length).toBeGreaterThan(0);
      for (const { blob_key } of keys)
        expect(existsSync(path.join(dataDir, 'blobs', blob_key.slice(0, 2), blob_key))).toBe(true);
    } finally {
      await database.close();
    }

    // The upgraded server signs the fixture's admin in and lists its devices.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', MQTT_PORT: '0' });
    const app = await build(config, { logger: false });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { name: 'harbour_admin', password: 'fixture-password-2' },
      });
      expect(login.statusCode).toBe(200);
      const list = await app.inject({
        url: '/api/v1/tenant/harbour/device?limit=100',
        headers: { authorization: `Bearer ${login.json().access_token}` },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toHaveLength(6);
    } finally {
      await app.close();
    }
    // Three migrations and a server start: slow on a busy box.
  }, 90_000);
});
