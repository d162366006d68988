import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { DbSnapshot } from '../db/pglite-thread.ts';
import { PRIVATE_FILE_MODE } from '../lib/private-files.ts';
import { serverRoot } from '../lib/paths.ts';
import type { LocalBlobStore } from '../storage/local-blob-store.ts';
import { writeBackup } from './write-backup.ts';

/** The socket `npm run backup` asks the running server through; in DATA_DIR, so only its user reaches it. */
export const BACKUP_SOCKET = 'backup.sock';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Listens on DATA_DIR/backup.sock (0600) for one JSON line `{"backup": "/absolute/path.tar.gz"}`,
 * writes the archive there and answers `{"manifest": …}` or `{"error": "…"}`. One backup at a
 * time. Returns the function that stops listening.
 */
export async function listenForBackups(opts: {
  dataDir: string;
  snapshot: () => Promise<DbSnapshot>;
  blobs: LocalBlobStore;
  log: Logger;
}): Promise<() => Promise<void>> {
  const socketPath = path.join(opts.dataDir, BACKUP_SOCKET);
  const root = serverRoot();
  const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const journal = JSON.parse(readFileSync(path.join(root, 'drizzle', 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  let running = false;
  const server = net.createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      input += chunk;
      if (input.length > 4096) return void socket.destroy();
      const newline = input.indexOf('\n');
      if (newline === -1) return;
      socket.pause();
      const answer = (body: object) => socket.end(JSON.stringify(body) + '\n');
      let out: unknown;
      try {
        out = (JSON.parse(input.slice(0, newline)) as { backup?: unknown }).backup;
      } catch {
        return answer({ error: 'expected one JSON line {"backup": "<absolute path>"}' });
      }
      if (typeof out !== 'string' || !path.isAbsolute(out)) return answer({ error: 'backup: an absolute path' });
      if (running) return answer({ error: 'a backup is already running' });
      running = true;
      const started = Date.now();
      // How long the database answered nothing else (waiting for a pause, counts, checkpoint, copy).
      let snapshotMs = 0;
      const snapshot = async () => {
        const t = Date.now();
        try {
          return await opts.snapshot();
        } finally {
          snapshotMs = Date.now() - t;
        }
      };
      writeBackup(
        {
          snapshot,
          blobs: opts.blobs,
          dataDir: opts.dataDir,
          version,
          migrationTags: journal.entries.map((e) => e.tag),
        },
        out,
      )
        .then(
          (manifest) => {
            const ms = Date.now() - started;
            opts.log.info({ file: out, ms, snapshotMs, sizes: manifest.sizes }, 'backup written');
            answer({ manifest, ms, snapshotMs });
          },
          (err: Error) => {
            opts.log.warn({ err, file: out }, 'backup failed');
            answer({ error: err.message });
          },
        )
        .finally(() => (running = false));
    });
  });
  // A socket left by a server that was killed would refuse the new one.
  await fs.rm(socketPath, { force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    await fs.chmod(socketPath, PRIVATE_FILE_MODE);
  } catch (err) {
    // A DATA_DIR path past the socket name limit (about 100 bytes): the server runs without it.
    opts.log.warn({ err, socketPath }, 'backups unavailable: cannot listen on the backup socket');
    return async () => {};
  }
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
