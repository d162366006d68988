import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { ADMIN, copyPgliteTemplate } from '../../apps/server/test/helpers/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  mqttUrl: string;
  dataDir: string;
  /** Stops reading the process's output, as a supervisor that hung or went away would: the pipe fills up. */
  stopReading(): void;
  /** Resolves with the exit code and signal, or null when the process is still alive after `ms`. */
  exited(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null>;
  /** Everything the process printed while it was read. */
  output(): string;
}

/** A fresh data directory: a copy of the migrated PGlite template (or an empty one in scale mode). */
export async function freshDataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-proc-'));
  if (inject('pgliteTemplate')) copyPgliteTemplate(dir);
  return dir;
}

/**
 * Runs the built server as `npm start` does (`scripts/start.mjs`, which forwards signals) or
 * `apps/server/dist/main.js` itself, on loopback ports picked by the system, at the `npm start`
 * log level, with its output on a pipe. Resolves once it answers on HTTP and MQTT.
 */
export async function spawnServer(opts: {
  script: 'scripts/start.mjs' | 'apps/server/dist/main.js';
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, opts.script)], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: opts.dataDir,
      PORT: '0',
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      WEB_DIST: inject('webDist'),
      ...opts.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const onData = (d: Buffer) => (out += d.toString());
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  let url = '';
  let mqttUrl = '';
  while (!url || !mqttUrl) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`the server did not start in 60 s:\n${out}`);
    url ||= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? '';
    mqttUrl ||= /"url":"(mqtt:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1] ?? '';
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    mqttUrl,
    dataDir: opts.dataDir,
    stopReading() {
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.pause();
      child.stderr!.pause();
    },
    exited: (ms) => Promise.race([exit, new Promise<null>((r) => setTimeout(() => r(null), ms))]),
    output: () => out,
  };
}
