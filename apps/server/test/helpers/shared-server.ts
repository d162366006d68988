import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { copyPgliteTemplate, startServer, type TestServer } from './server.ts';

/**
 * What every shared server runs with, under the env a file asks for: the uploads' token secret
 * (the files sign download links with it), startServer's command timeout, and no alert sweep on a
 * timer (a file that raises alerts runs the sweep itself, at the time it names, and a sweep on a
 * timer would walk the other files' entities at any moment of its tests), and the per-address rate
 * limits far above a file's needs: every file signs in from 127.0.0.1, so a minute's budget meant
 * for one file would be spent by the worker's files together (the limits themselves are tested on
 * servers of their own: rate-limit, throttle, lockout). A file asking for exactly this, or
 * nothing, gets the same server.
 */
export const SHARED_ENV = {
  JWT_SECRET: 'uploads-test-secret-0123456789abcdef0123456789',
  COMMAND_REPLY_TIMEOUT_MS: '1500',
  ALERT_SWEEP_S: '0',
  RATE_LIMIT_LOGIN_MAX: '100000',
  RATE_LIMIT_REFRESH_MAX: '100000',
  RATE_LIMIT_DOWNLOAD_MAX: '100000',
  RATE_LIMIT_AUTH_FAILURES_MAX: '100000',
};

// The worker's servers, one per configuration asked for (the env, sorted, as the key).
const servers = new Map<string, Promise<TestServer>>();

/**
 * Whether `sharedServer` hands out the worker's server: only on the embedded database, where the
 * integration project runs a worker's files in one module graph (vitest.config.ts `isolate`), and
 * unless INTEGRATION_OWN_SERVERS=1 asks for one server a file (to tell a leak between files from a
 * file's own failure, and the before of the suite-speed A/B).
 */
export function sharingServers(): boolean {
  return (
    !process.env.MQTT_URL &&
    !process.env.DATABASE_URL &&
    !process.env.INTEGRATION_OWN_SERVERS &&
    Boolean(inject('integrationScratch'))
  );
}

/**
 * The worker's server for `env` (over SHARED_ENV), started by the first file that asks and used by
 * every later file of the worker that asks for the same; its `close()` does nothing (the worker's
 * process ends with it, and the global teardown removes its data directory). Only for a file whose
 * data is its own (entities, accounts and device ids no other file names: the helpers' random tags
 * and `randomDeviceId`), that reads no landlord-wide list or count, and that neither restarts the
 * server nor changes its settings or clock. In scale mode (each file its own process) and with
 * INTEGRATION_OWN_SERVERS=1 it is the file's own server (with the same env), closed by `close()`
 * as `startServer`'s is.
 */
export async function sharedServer(env: Record<string, string> = {}): Promise<TestServer> {
  const full = { ...SHARED_ENV, ...env };
  if (!sharingServers()) return startServer(full);
  const key = JSON.stringify(Object.entries(full).sort(([a], [b]) => a.localeCompare(b)));
  let server = servers.get(key);
  if (!server) {
    const dataDir = fs.mkdtempSync(path.join(inject('integrationScratch') ?? '', `worker-${process.pid}-`));
    copyPgliteTemplate(dataDir);
    server = startServer({ ...full, DATA_DIR: dataDir }).then((s) => ({ ...s, close: async () => {} }));
    servers.set(key, server);
    server.catch(() => servers.delete(key));
  }
  return server;
}
