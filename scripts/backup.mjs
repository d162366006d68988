// npm run backup [file]: asks the server running on DATA_DIR (default ./data) for a backup of its
// embedded database and blob store, written to `file` (default fleet-backup-<time>.tar.gz here).
// The server keeps running. docs/operations.md "Backups".
import net from 'node:net';
import path from 'node:path';

const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = path.resolve(process.argv[2] ?? `fleet-backup-${stamp}.tar.gz`);
const socketPath = path.join(dataDir, 'backup.sock');

const answer = await new Promise((resolve, reject) => {
  let text = '';
  const socket = net.connect(socketPath, () => socket.write(JSON.stringify({ backup: out }) + '\n'));
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => (text += chunk));
  socket.on('end', () => resolve(text));
  socket.on('error', reject);
}).catch((err) => {
  console.error(
    `No server answers on ${socketPath} (${err.code ?? err.message}). npm run backup needs the server running on ` +
      'DATA_DIR with the embedded database (with DATABASE_URL use pg_dump; see docs/operations.md).',
  );
  process.exit(1);
});
const reply = JSON.parse(String(answer));
if (reply.error) {
  console.error(`Backup failed: ${reply.error}`);
  process.exit(1);
}
const { sizes, migrations } = reply.manifest;
console.log(
  `Backup written to ${out} in ${(reply.ms / 1000).toFixed(1)} s (the database paused ${reply.snapshotMs} ms of it): ` +
    `database ${sizes.database} bytes, ` +
    `${sizes.blobCount} blobs (${sizes.blobs} bytes), ${migrations.count} migrations (last ${migrations.last}).`,
);
