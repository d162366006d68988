// @ts-check
// What a backup archive holds and how its content is checked (docs/operations.md "Backups").

/** The archive layout's version; a restore refuses another. */
export const BACKUP_FORMAT = 1;
/** The archive's last entry. */
export const MANIFEST = 'manifest.json';

/**
 * @typedef {{
 *   format: number,
 *   app: 'fleet-console',
 *   version: string,
 *   createdAt: string,
 *   migrations: { count: number, last: string | null },
 *   rows: Record<string, number>,
 *   sizes: { database: number, blobs: number, blobCount: number },
 *   sha256: string,
 * }} BackupManifest
 */

/**
 * Adds one entry to the archive's digest: its name and its bytes, each closed by a zero byte.
 * @param {import('node:crypto').Hash} hash
 * @param {string} name
 * @param {Buffer} data
 */
export function entryDigest(hash, name, data) {
  hash.update(name).update('\0').update(data).update('\0');
}
