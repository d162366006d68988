// npm run restore <file>: a backup made by `npm run backup` into DATA_DIR (default ./data), which
// must be empty or absent. Start the server afterwards; it migrates the database if the backup
// comes from an earlier release. docs/operations.md "Backups".
import path from 'node:path';
import { RestoreRefused, restoreBackup } from '../apps/server/src/backup/restore.js';
import { root } from './lib.mjs';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run restore <backup.tar.gz>   (into DATA_DIR, default ./data, which must be empty)');
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
try {
  const m = await restoreBackup(path.resolve(file), dataDir, {
    migrationsFolder: path.join(root, 'apps/server/drizzle'),
  });
  console.log(
    `Restored the backup of ${m.createdAt} (release ${m.version}, ${m.migrations.count} migrations) into ${dataDir}: ` +
      `${m.rows.devices ?? 0} devices, ${m.sizes.blobCount} blobs. Start the server on it (it migrates if needed).`,
  );
} catch (err) {
  console.error(err instanceof RestoreRefused ? `Restore refused: ${err.message}` : err);
  process.exit(1);
}
