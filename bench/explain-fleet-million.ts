// The plans behind the device list and fleet health at a million devices (issue 27): run with
// `node --import tsx bench/explain-fleet-million.ts --reuse=<dir>` on a fill kept by
// `node bench/fleet-million.mjs --reuse=<dir>` (PGlite: the server must not be running on it;
// PostgreSQL under `scripts/ci/with-services.sh`, DATABASE_URL set). Prints EXPLAIN ANALYZE of the
// `bench` list's count and first page (the queries the route runs, from deviceFilter and
// deviceOrdering) for no filter, every sort and the slow filters, then of every statement the
// fleet health read runs for `bench` and for the whole fleet, per window, with its time.
import { count, sql, type SQL, type SQLWrapper } from 'drizzle-orm';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { devices } = await import('../apps/server/src/db/schema.ts');
const { deviceFilter, deviceOrdering } = await import('../apps/server/src/domain/device/device-filter.ts');
const { getFleetHealth } = await import('../apps/server/src/domain/fleet-health/get-fleet-health.ts');
const { DeviceListQuerySchema } = await import('@fleet/shared/schemas/device');

const dir = process.argv.find((a) => a.startsWith('--reuse='))?.slice('--reuse='.length);
if (!dir && !process.env.DATABASE_URL) throw new Error('--reuse=<dir> (a kept fill) or DATABASE_URL');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: String(dir) });
const db = database.db;

async function explain(label: string, query: SQLWrapper) {
  const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, costs off) ${query}`))
    .map((r) => Object.values(r)[0])
    .join('\n');
  const took = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  console.log(`\n## ${label}: ${took} ms\n${plan}`);
}

const LISTS: [string, string][] = [
  ['no filter', ''],
  ['seen=unresponsive', 'seen=unresponsive'],
  ['battery=Low', 'battery=Low'],
  ...['updated_at', 'name', 'battery', 'state', 'fw_version', 'group'].map((s): [string, string] => [
    `sort ${s} asc`,
    `sort=${s}&order=asc`,
  ]),
];
if (!only || only === 'list')
  for (const [label, q] of LISTS) {
    const query = DeviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(`limit=20&${q}`)));
    const where = deviceFilter('bench', query);
    await explain(`${label}: count`, db.select({ total: count() }).from(devices).where(where));
    await explain(
      `${label}: first page`,
      db
        .select()
        .from(devices)
        .where(where)
        .orderBy(...deviceOrdering(query))
        .limit(20),
    );
  }

// Every statement of a fleet health read, explained one after another, then the read timed.
if (!only || only === 'health')
  for (const [scope, window] of [
    ['bench', '24h'],
    ['bench', '30d'],
    [null, '24h'],
    [null, '30d'],
  ] as const) {
    const statements: SQL[] = [];
    const recording = new Proxy(db, {
      get: (target, key) =>
        key === 'execute'
          ? (q: SQL) => (statements.push(q), target.execute(q))
          : (Reflect.get(target, key, target) as unknown),
    });
    await getFleetHealth(recording, scope, window);
    for (const [i, q] of statements.entries())
      await explain(`fleet health ${scope ?? 'whole fleet'} ${window}, #${i + 1}`, q);
    const t0 = performance.now();
    await getFleetHealth(db, scope, window);
    console.log(`\n== fleet health ${scope ?? 'whole fleet'} ${window}: ${(performance.now() - t0).toFixed(1)} ms`);
  }

await database.close();
