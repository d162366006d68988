// Child of bench/server-start.mjs: in one fresh process, as a test file's worker does, imports the
// app from `--src` (an apps/server/src, this tree's by default), then builds, listens and closes it
// --builds times on a copy of the PGlite template (opened before the timer: the build alone is
// timed), then a bare Fastify app the same number of times (the same-run baseline). Prints one
// JSON line: CPU seconds (user + system, every thread of the process) of each phase.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { build as Build } from '../apps/server/src/app.ts';
import type { loadConfig as LoadConfig } from '../apps/server/src/config.ts';
import type { openDatabase as OpenDatabase } from '../apps/server/src/db/client.ts';

const option = (name: string, dflt: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const src = path.resolve(option('src', path.join(import.meta.dirname, '../apps/server/src')));
const builds = Number(option('builds', '3'));
const template = path.resolve(
  option('template', path.join(import.meta.dirname, '../apps/server/dist/pgdata-template')),
);

const cpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = cpuS();
  const value = await fn();
  return [value, cpuS() - t];
};

const [modules, importS] = await timed(async () => ({
  build: ((await import(pathToFileURL(path.join(src, 'app.ts')).href)) as { build: typeof Build }).build,
  loadConfig: ((await import(pathToFileURL(path.join(src, 'config.ts')).href)) as { loadConfig: typeof LoadConfig })
    .loadConfig,
  openDatabase: (
    (await import(pathToFileURL(path.join(src, 'db/client.ts')).href)) as { openDatabase: typeof OpenDatabase }
  ).openDatabase,
}));

const runs = [];
for (let i = 0; i < builds; i++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-start-'));
  try {
    const [database, dbS] = await timed(async () => {
      cpSync(template, dir, { recursive: true });
      return modules.openDatabase({ dataDir: dir });
    });
    const config = modules.loadConfig({
      DATA_DIR: dir,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'bench-password-1',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
    });
    const [app, buildS] = await timed(async () => {
      const built = await modules.build(config, { logger: false, database: Promise.resolve(database) });
      await built.listen({ port: 0, host: '127.0.0.1' });
      return built;
    });
    const [, closeS] = await timed(() => app.close());
    runs.push({ dbS, buildS, closeS });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { default: Fastify } = await import('fastify');
const bare = [];
for (let i = 0; i < builds; i++) {
  const [, s] = await timed(async () => {
    const app = Fastify({ logger: false });
    app.get('/healthz', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.close();
  });
  bare.push(s);
}
console.log(JSON.stringify({ importS, runs, bare }));
