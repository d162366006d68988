import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, copyPgliteTemplate, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';
import { upload } from '../helpers/uploads.ts';

/**
 * What the server keeps under DATA_DIR (the embedded database's pgdata, the blobs, the generated
 * JWT secret) is readable by its own user only: directories 0700, files 0600, including what an
 * earlier version left readable to everyone.
 */
const embedded = !process.env.DATABASE_URL;
let root: string;
let dataDir: string;
let s: TestServer | undefined;

/** Every entry under `dir` with its permission bits, as `relative path → octal mode`. */
async function modes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out[path.relative(dir, p) + (e.isDirectory() ? '/' : '')] = ((await fs.lstat(p)).mode & 0o777).toString(8);
      if (e.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return out;
}

/** The entries whose mode is not 700 (directories) or 600 (files). */
async function readableToOthers(dir: string) {
  return Object.entries(await modes(dir)).filter(([p, mode]) => mode !== (p.endsWith('/') ? '700' : '600'));
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-perm-'));
  dataDir = path.join(root, 'data');
  // A DATA_DIR as an earlier version left it: everything readable to everyone.
  if (embedded) copyPgliteTemplate(dataDir);
  const key = randomUUID();
  await fs.mkdir(path.join(dataDir, 'blobs', key.slice(0, 2)), { recursive: true });
  await fs.writeFile(path.join(dataDir, 'blobs', key.slice(0, 2), key), 'old blob');
  await fs.writeFile(path.join(dataDir, 'jwt-secret'), 'x'.repeat(48));
  const loosen = async (d: string): Promise<void> => {
    await fs.chmod(d, 0o755);
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await loosen(path.join(d, e.name));
      else await fs.chmod(path.join(d, e.name), 0o644);
    }
  };
  await loosen(dataDir);
  expect((await readableToOthers(dataDir)).length).toBeGreaterThan(3);
  s = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await s?.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('files under DATA_DIR', () => {
  it('are made 0600 in 0700 directories at start, the database and old blobs included', async () => {
    expect(await readableToOthers(dataDir)).toEqual([]);
    const all = Object.keys(await modes(dataDir));
    expect(all).toContain('jwt-secret');
    expect(all).toContain('blobs/');
    if (embedded) expect(all.filter((p) => p.startsWith('pgdata/')).length).toBeGreaterThan(100);
  });

  it('stays so for blobs stored while running and database files written until it closes', async () => {
    const token = (await signIn(s!, ADMIN.name, ADMIN.password)).access_token;
    const entity = `perm_${randomUUID().slice(0, 6)}`;
    await s!.request('POST', '/api/v1/tenant', {
      token,
      body: { document: { name: { name: entity, description: '' } } },
    });
    const res = await upload(s!, `/api/v1/tenant/${entity}/files`, token, {
      fields: { level: 'entity', entity_id: entity, file_device_path: 'config/app.json' },
      filename: 'app.json',
      bytes: 1000,
    });
    expect(res.status).toBe(201);
    const blobs = Object.keys(await modes(path.join(dataDir, 'blobs'))).filter((p) => !p.endsWith('/'));
    expect(blobs).toHaveLength(2);
    expect(await readableToOthers(dataDir)).toEqual([]);
    await s!.close();
    s = undefined;
    expect(await readableToOthers(dataDir)).toEqual([]);
  });

  it('a DATA_DIR the server creates is its own: 0700', async () => {
    const fresh = path.join(root, 'new', 'data');
    const other = await startServer({ DATA_DIR: fresh });
    try {
      expect(((await fs.stat(fresh)).mode & 0o777).toString(8)).toBe('700');
      expect(await readableToOthers(fresh)).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
