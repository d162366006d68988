import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { TestS3 } from './s3.ts';
import { ADMIN, startServer, type TestServer } from './server.ts';
import { SHARED_ENV, sharedServer } from './shared-server.ts';
import { createAccount, signIn } from './session.ts';

/** A multipart upload through fetch: text fields in order, then the file under `field`. */
export async function upload(
  s: TestServer,
  url: string,
  token: string,
  o: { fields: Record<string, string>; field?: string; filename?: string; bytes: Buffer | number },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(o.fields)) form.append(k, v);
  const bytes = typeof o.bytes === 'number' ? Buffer.alloc(o.bytes, 7) : o.bytes;
  form.append(o.field ?? 'file', new Blob([new Uint8Array(bytes)]), o.filename ?? 'image.bin');
  const res = await fetch(s.url + url, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Sends a multipart upload that announces `announced` bytes, writes `sent` of them and then cuts
 * the connection, as a client whose link drops does. Resolves once the socket is gone.
 */
export function uploadCutShort(s: TestServer, url: string, token: string, fields: Record<string, string>) {
  const boundary = `----cut${randomBytes(6).toString('hex')}`;
  const head =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="cut.bin"\r\n` +
    'content-type: application/octet-stream\r\n\r\n';
  const u = new URL(s.url + url);
  return new Promise<void>((resolve) => {
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + 2_000_000),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(head);
    req.write(Buffer.alloc(500_000, 1), () => setTimeout(() => req.destroy(), 200));
  });
}

/** Every file name under `dir`, recursively. */
export async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

/**
 * Every file under `root` in a directory changed since `since` (ms): what a process may have
 * written there lately, without reading a shared temp directory's old trees (checkouts and
 * node_modules left by other work can hold millions of files). The root is always listed.
 */
export async function writtenSince(root: string, since: number): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(root, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(root, e.name);
    if (!e.isDirectory()) out.push(p);
    else if (((await fs.stat(p).catch(() => null))?.mtimeMs ?? 0) >= since)
      out.push(p, ...(await writtenSince(p, since)));
    else out.push(p);
  }
  return out;
}

/** The blob keys in the server's store, whichever it is. */
export async function storedKeys(s: TestServer, s3?: TestS3): Promise<string[]> {
  if (s3) return s3.keys();
  const root = path.join(s.config.dataDir, 'blobs');
  return (await walk(root))
    .filter((f) => !path.relative(root, f).startsWith(`tmp${path.sep}`))
    .map((f) => path.basename(f));
}

export const JWT_SECRET = SHARED_ENV.JWT_SECRET;

/**
 * A server (optionally on S3) with two entities, their admins and an operator of the first. With
 * `shared`, the worker's server for the same env (helpers/shared-server.ts).
 */
export async function startForUploads(env: Record<string, string> = {}, opts: { shared?: boolean } = {}) {
  const tag = randomBytes(3).toString('hex');
  const [acme, globex] = [`acme_${tag}`, `globex_${tag}`];
  const s = await (opts.shared ? sharedServer : startServer)({ JWT_SECRET, ...env });
  const root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  const tokens: Record<string, string> = {};
  for (const name of [acme, globex]) {
    await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description: '' } } } });
  }
  for (const [who, entity, subtype] of [
    ['admin', acme, 'admin'],
    ['other', globex, 'admin'],
    ['operator', acme, 'operator'],
  ] as const) {
    tokens[who] = (await createAccount(s, root, { name: `${who}_${tag}`, entity, subtype })).access_token;
  }
  return { s, root, acme, globex, tokens: tokens as Record<'admin' | 'other' | 'operator', string> };
}
