import fs from 'node:fs/promises';
import path from 'node:path';

/** Directories the server keeps under DATA_DIR: only its own user may enter them. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files the server keeps under DATA_DIR: only its own user may read them. */
export const PRIVATE_FILE_MODE = 0o600;

/** Whether `dir` exists with mode 0700 already. */
export async function isPrivateDir(dir: string): Promise<boolean> {
  const stat = await fs.lstat(dir).catch(vanished);
  return stat !== undefined && stat.isDirectory() && (stat.mode & 0o777) === PRIVATE_DIR_MODE;
}

/**
 * Creates `dir` (with any missing parents, DATA_DIR included) as 0700, and makes an existing one
 * 0700. Parents that already exist keep their mode: they may be the operator's.
 */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.chmod(dir, PRIVATE_DIR_MODE).catch(notOurs);
}

/** Makes a file 0600 when this user may (a secret mounted read-only, or another user's, stays as it is). */
export async function makePrivateFile(file: string): Promise<void> {
  await fs.chmod(file, PRIVATE_FILE_MODE).catch(notOurs);
}

/**
 * Makes every directory under `root` 0700 and every file 0600, `root` last: files an earlier
 * version (or the embedded database, which creates its files 0644 or 0666) left readable to
 * others. Symbolic links are not followed; an entry that vanishes meanwhile, or that this user
 * may not change, is skipped.
 */
export async function restrictTree(root: string): Promise<void> {
  const entries = (await fs.readdir(root, { withFileTypes: true }).catch(vanished)) ?? [];
  // A directory's files at once, its subdirectories one after another: a blob store's hundreds
  // of thousands of files never become as many pending operations.
  await Promise.all(entries.filter((e) => e.isFile()).map((e) => restrict(path.join(root, e.name), PRIVATE_FILE_MODE)));
  for (const e of entries) if (e.isDirectory()) await restrictTree(path.join(root, e.name));
  await restrict(root, PRIVATE_DIR_MODE);
}

/** Sets `mode` unless it is already that: an unchanged file keeps its ctime (backups compare it). */
async function restrict(p: string, mode: number): Promise<void> {
  const stat = await fs.lstat(p).catch(vanished);
  if (stat && (stat.mode & 0o777) !== mode) await fs.chmod(p, mode).catch(notOurs);
}

function vanished(err: NodeJS.ErrnoException): undefined {
  if (err.code === 'ENOENT') return undefined;
  throw err;
}

/** What this user may not change (another user's, or on a read-only mount) is left as it is. */
function notOurs(err: NodeJS.ErrnoException): undefined {
  if (err.code === 'EPERM' || err.code === 'EROFS') return undefined;
  return vanished(err);
}
