// Child process for bench/files.mjs (run with `node --import tsx`): the real app on
// 127.0.0.1:PORT with its embedded broker on MQTT_PORT, entity `bench` and its admin.
// Prints one JSON line {ready} once listening.
const { build } = await import('../apps/server/src/app.ts');
const { loadConfig } = await import('../apps/server/src/config.ts');
const { BENCH_PASSWORD, seedBenchTenant } = await import('./bench-tenant.ts');

const { openDatabase } = await import('../apps/server/src/db/client.ts');

// The database is created and migrated before the app starts, so a busy machine's slow PGlite
// initdb does not run into Fastify's plugin timeout.
if (!process.env.DATABASE_URL) await (await openDatabase({ dataDir: process.env.DATA_DIR! })).close();
const config = loadConfig({
  DATA_DIR: process.env.DATA_DIR,
  ADMIN_PASSWORD: BENCH_PASSWORD,
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  MQTT_PORT: process.env.MQTT_PORT,
  PUBLIC_URL: `http://127.0.0.1:${process.env.PORT}`,
  // A fleet's downloads all come from 127.0.0.1 here: the per-address limits would measure themselves.
  RATE_LIMIT_ENABLED: 'false',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const app = await build(config, { logger: false });
await seedBenchTenant(app.db, ['bench']);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(JSON.stringify({ ready: true }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
