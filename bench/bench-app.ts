// The real app for a bench child process that fills its database with SQL: PGlite migrated first
// (outside the app's plugin timeout, long on a loaded box), the embedded broker on a free port,
// and the 50 entities `bench`, e01…e49 with `bench`'s admin. DATABASE_URL selects PostgreSQL.
import { sql } from 'drizzle-orm';
import type { BuildOptions } from '../apps/server/src/app.ts';

const { build } = await import('../apps/server/src/app.ts');
const { loadConfig } = await import('../apps/server/src/config.ts');
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { BENCH_PASSWORD, seedBenchTenant } = await import('./bench-tenant.ts');

/** `bench` and 49 others. */
export const FIFTY_ENTITIES = ['bench', ...Array.from({ length: 49 }, (_, i) => `e${String(i + 1).padStart(2, '0')}`)];

/** `(array['bench', …])[1 + <expr> % 50]`: the entity of row `<expr>` of a bulk fill. */
export const entityOf = (expr: string) =>
  sql.raw(`(array[${FIFTY_ENTITIES.map((e) => `'${e}'`).join(',')}])[1 + ${expr} % 50]`);

/** `env`: more settings for this bench (e.g. SMTP_URL, DELIVERY_POLL_MS); `opts`: build()'s bench seams. */
export async function benchApp(
  dataDir: string,
  env: Record<string, string> = {},
  opts: Pick<BuildOptions, 'unaudited'> = {},
) {
  if (!process.env.DATABASE_URL) await (await openDatabase({ dataDir })).close();
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: BENCH_PASSWORD,
    LOG_LEVEL: 'silent',
    MQTT_PORT: '0',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const app = await build(config, { logger: false, ...opts });
  await seedBenchTenant(app.db, FIFTY_ENTITIES);
  return app;
}
