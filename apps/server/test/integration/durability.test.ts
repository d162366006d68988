import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverEntry } from '../helpers/server-entry.ts';
import { ADMIN, copyPgliteTemplate } from '../helpers/server.ts';

const serverDir = path.resolve(import.meta.dirname, '../..');
let child: ChildProcess | undefined;
/**
 * The server the kill -9 test restarted, left running for the SIGTERM test to stop: a start saved
 * (each is seconds of CPU). Run alone, or after that test failed, the SIGTERM test starts its own.
 */
let restarted: { proc: ChildProcess; port: number } | undefined;
const dataDirs: string[] = [];
type Tokens = { access_token: string; refresh_token: string };

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A data directory of the test's own in the system's temp dir: a copy of the migrated template
 * (or empty in scale mode). Without one the server would write its database into the source tree.
 */
async function freshDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-durable-'));
  dataDirs.push(dir);
  if (!process.env.DATABASE_URL) copyPgliteTemplate(dir);
  return dir;
}

/** Starts the real server as its own process, as `npm start` does, and waits until it is ready. */
async function startProcess(port: number, dataDir: string): Promise<ChildProcess> {
  const proc = spawn(process.execPath, serverEntry(), {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The embedded broker on a free port: 1883 may be taken (a demo running on this machine).
      MQTT_PORT: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Up to 45 s: slow on a box busy with other test files (from sources with tsx, slower still).
  for (let i = 0; i < 450; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return proc;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

afterAll(async () => {
  child?.kill('SIGKILL');
  for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('durability', () => {
  it('keeps every acknowledged write across kill -9 of the server', async () => {
    const dataDir = await freshDataDir();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/v1`;
    const post = (p: string, token?: string, body?: unknown) =>
      fetch(base + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    child = await startProcess(port, dataDir);
    // Three acknowledged writes: a login (new family), a rotation (spends one, adds one), a logout.
    const first = (await (await post('/login', undefined, ADMIN)).json()) as Tokens;
    const rotated = (await (await post('/refresh', first.refresh_token)).json()) as Tokens;
    const other = (await (await post('/login', undefined, ADMIN)).json()) as Tokens;
    expect((await post('/logout', other.refresh_token)).status).toBe(204);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));

    child = await startProcess(port, dataDir);
    // The rotation survived: the new token works, the spent one is refused.
    const again = await post('/refresh', rotated.refresh_token);
    expect(again.status).toBe(200);
    expect((await post('/refresh', first.refresh_token)).status).toBe(401);
    // The logout survived: that family stays revoked.
    expect((await post('/refresh', other.refresh_token)).status).toBe(401);
    restarted = { proc: child, port };
  }, 120_000);

  it('shuts down gracefully on SIGTERM: in-flight work finishes and the process exits 0', async () => {
    const port = restarted?.port ?? (await freePort());
    child = restarted?.proc ?? (await startProcess(port, await freshDataDir()));
    restarted = undefined;
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    // In flight for sure, with no sleep: `Expect: 100-continue` makes the server say it has read the
    // request's head (the request has begun) before the body is sent; SIGTERM follows the body.
    const inflight = new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/v1/login',
          method: 'POST',
          headers: { 'content-type': 'application/json', expect: '100-continue' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.on('continue', () => {
        req.end(JSON.stringify(ADMIN));
        child!.kill('SIGTERM');
      });
      req.flushHeaders();
    });
    expect(await inflight).toBe(200);
    expect(await exited).toBe(0);
  }, 120_000);
});
