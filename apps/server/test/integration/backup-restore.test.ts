import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/app.ts';
import type { BackupManifest } from '../../src/backup/manifest.js';
import { RestoreRefused, restoreBackup } from '../../src/backup/restore.js';
import { migrationsFolder, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { loadConfig } from '../../src/config.ts';
import { ADMIN, type TestServer } from '../helpers/server.ts';
import { connectDevice, randomDeviceId, registerDevice, type TestDevice } from '../helpers/devices.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

// Issue 30: `npm run backup` while the server runs, `npm run restore` into an empty directory.
// The backup socket and the archive are the embedded mode's (PGlite and DATA_DIR/blobs).
const embedded = !process.env.DATABASE_URL;
let s: TestServer;
let root = '';
let ACME = '';
const work: string[] = [];
let archive = '';
let manifest: BackupManifest;

/** What `npm run backup` does: one JSON line to DATA_DIR/backup.sock, one JSON line back. */
function askForBackup(dataDir: string, out: string): Promise<{ manifest?: BackupManifest; error?: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(path.join(dataDir, 'backup.sock'), () =>
      socket.write(JSON.stringify({ backup: out }) + '\n'),
    );
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    socket.on('end', () => resolve(JSON.parse(text)));
    socket.on('error', reject);
  });
}

async function tmp(prefix: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  work.push(dir);
  return dir;
}

const firmware = (version: string) =>
  upload(s, `/api/v1/tenant/${ACME}/firmware`, root, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: ACME, version, device_type: 'CC1', description: '' },
    bytes: Buffer.from(`firmware ${version} `.repeat(200)),
  });

beforeAll(async () => {
  if (!embedded) return;
  ({ s, root, acme: ACME } = await startForUploads());
});
afterAll(async () => {
  await s?.close();
  for (const dir of work) await fs.rm(dir, { recursive: true, force: true });
});

describe.runIf(embedded)('backup of a running server and restore', () => {
  it('backs up while reports arrive and a file is deleted; the restored server has every row and blob', async () => {
    const devices: TestDevice[] = [];
    for (let i = 0; i < 4; i++) {
      const creds = await registerDevice(s, root, ACME, randomDeviceId());
      if (i < 3) devices.push(await connectDevice(s, ACME, creds));
    }
    const kept = [await firmware('1.0.0'), await firmware('1.1.0'), await firmware('1.2.0')];
    expect(kept.map((u) => u.status)).toEqual([201, 201, 201]);
    let reporting = true;
    let sent = 0;
    const reports = Promise.all(
      devices.map(async (d) => {
        for (let battery = 100; reporting; battery = battery > 1 ? battery - 1 : 100) {
          await d.publish('state', { state: 'WAITING', battery });
          sent++;
        }
      }),
    );
    const dir = await tmp('fleet-backup-');
    archive = path.join(dir, 'backup.tar.gz');
    const [reply, removed] = await Promise.all([
      askForBackup(s.config.dataDir, archive),
      s.request('DELETE', `/api/v1/tenant/${ACME}/firmware/${kept[0]!.body.data.id}`, { token: root }),
    ]);
    reporting = false;
    await reports;
    await Promise.all(devices.map((d) => d.close()));
    expect(removed.status).toBe(200);
    expect(reply.error).toBeUndefined();
    manifest = reply.manifest!;
    expect(sent).toBeGreaterThan(0);
    expect((await fs.stat(archive)).mode & 0o777).toBe(0o600);
    const journal = JSON.parse(await fs.readFile(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'));
    expect(manifest.migrations.count).toBe(journal.entries.length);
    expect(manifest.rows.devices).toBeGreaterThanOrEqual(4);
    expect(manifest.rows.device_telemetry).toBeGreaterThan(0);
    expect(manifest.rows.firmware).toBeGreaterThanOrEqual(2);

    const restored = path.join(await tmp('fleet-restored-'), 'data');
    await restoreBackup(archive, restored, { migrationsFolder: migrationsFolder() });
    // The restored database, opened (and migrated) as the server opens it, before any start-up
    // work of the server's writes to it (offline points, the daily roll-up).
    const database = await openDatabase({ dataDir: restored });
    try {
      for (const [table, count] of Object.entries(manifest.rows)) {
        const [row] = rowsOf<{ n: number }>(
          await database.db.execute(sql.raw(`select count(*)::int as n from "${table}"`)),
        );
        expect({ table, count: row!.n }).toEqual({ table, count });
      }
      // Every stored upload the restored rows name has its bytes (the delete waited for the copy).
      const keys = rowsOf<{ blob_key: string }>(
        await database.db.execute(sql`select blob_key from firmware union all select blob_key from files`),
      );
      expect(keys.length).toBe(manifest.rows.firmware! + manifest.rows.files!);
      for (const { blob_key } of keys)
        expect(existsSync(path.join(restored, 'blobs', blob_key.slice(0, 2), blob_key))).toBe(true);
    } finally {
      await database.close();
    }
    // And the server starts on it: the session signed in before the backup still holds, the
    // devices are there. (This test server's secret comes from JWT_SECRET, not DATA_DIR/jwt-secret.)
    const config = loadConfig({
      JWT_SECRET: s.config.JWT_SECRET!,
      DATA_DIR: restored,
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
    });
    const app = await build(config, { logger: false });
    try {
      const list = await app.inject({
        url: `/api/v1/tenant/${ACME}/device?limit=100`,
        headers: { authorization: `Bearer ${root}` },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toHaveLength(4);
    } finally {
      await app.close();
    }
    // Two server starts (the test's and the restored one's) and a migration check: slow on a busy box.
  }, 90_000);

  it('refuses a damaged or truncated archive and a directory that is not empty, leaving nothing behind', async () => {
    const bytes = await fs.readFile(archive);
    const dir = await tmp('fleet-bad-');
    const damaged = path.join(dir, 'damaged.tar.gz');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    await fs.writeFile(damaged, flipped);
    const truncated = path.join(dir, 'truncated.tar.gz');
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.9)));
    const target = path.join(dir, 'data');
    const opts = { migrationsFolder: migrationsFolder() };
    await expect(restoreBackup(damaged, target, opts)).rejects.toThrow(RestoreRefused);
    await expect(restoreBackup(truncated, target, opts)).rejects.toThrow(/truncated|damaged/);
    expect(await fs.readdir(dir)).toEqual(['damaged.tar.gz', 'truncated.tar.gz']);

    await fs.mkdir(target);
    await fs.writeFile(path.join(target, 'something'), 'kept');
    await expect(restoreBackup(archive, target, opts)).rejects.toThrow(/is not empty/);
    expect(await fs.readdir(target)).toEqual(['something']);
  });
});
