// The plans behind the device list and fleet health at a million devices (issue 27): run with
// `node --import tsx bench/explain-fleet-million.ts --reuse=<dir>` on a fill kept by
// `node bench/fleet-million.mjs --reuse=<dir>` (PGlite: the server must not be running on it;
// PostgreSQL under `scripts/ci/with-services.sh`, DATABASE_URL set). Prints EXPLAIN ANALYZE of the
// `bench` list's count and first page (the queries the route runs, from deviceFilter and
// deviceOrdering) for no filter, every sort and the slow filters, then of every statement the
// fleet health read runs for `bench` and for the whole fleet, per window, with its time. `--ab`
// instead: the reads before and after migration 0028 on the same fill, alternated (A B A B …),
// median of `--runs=7` each: the one scan of the devices the figures of now were vs fleetNow, the
// list's count(*) vs countDevices, and the 24 h window's devices by creation over every device vs
// over the window's; then each fleet health read whole, and the list's first pages.
import { count, sql, type SQL, type SQLWrapper } from 'drizzle-orm';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { devices } = await import('../apps/server/src/db/schema.ts');
const { deviceFilter, deviceOrdering } = await import('../apps/server/src/domain/device/device-filter.ts');
const { getFleetHealth } = await import('../apps/server/src/domain/fleet-health/get-fleet-health.ts');
const { fleetNow } = await import('../apps/server/src/domain/fleet-health/fleet-now.ts');
const { countDevices } = await import('../apps/server/src/domain/device/count-devices.ts');
const { DeviceListQuerySchema } = await import('@fleet/shared/schemas/device');

const dir = process.argv.find((a) => a.startsWith('--reuse='))?.slice('--reuse='.length);
if (!dir && !process.env.DATABASE_URL) throw new Error('--reuse=<dir> (a kept fill) or DATABASE_URL');
const only = process.argv.includes('--ab')
  ? 'ab'
  : process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 7);
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

if (only === 'ab') await compare();
await database.close();

/** Median ms of RUNS calls of each of `a` and `b`, alternated. */
async function ab(label: string, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  const [ta, tb]: number[][] = [[], []];
  for (let i = 0; i < RUNS; i++)
    for (const [f, t] of [
      [a, ta],
      [b, tb],
    ] as const) {
      const t0 = performance.now();
      await f();
      t.push(performance.now() - t0);
    }
  const median = (t: number[]) => t.sort((x, y) => x - y)[Math.floor(t.length / 2)]!;
  console.log(`| ${label} | ${median(ta).toFixed(1)} ms | ${median(tb).toFixed(1)} ms |`);
}

async function compare() {
  console.log(`\n| read (median of ${RUNS}, alternated) | before 0028 | after |\n| --- | --- | --- |`);
  const scope = (e: string | null) => (e === null ? sql`` : sql`and entity = ${e}`);
  // The figures of now as one scan of the scope's devices (before 0028).
  const scan = (e: string | null) =>
    db.execute(sql`
      select grouping(state_current)::int, grouping(manufacturing_type, fw_version)::int, state_current,
        manufacturing_type, fw_version, count(*)::int, count(*) filter (where online)::int,
        count(*) filter (where updated_at < now() - interval '20 minutes')::int,
        count(*) filter (where updated_at = created_at)::int, count(*) filter (where battery > 75)::int,
        count(*) filter (where battery > 50 and battery <= 75)::int, count(*) filter (where battery <= 50)::int,
        count(*) filter (where is_charging and battery is not null)::int
      from devices where true ${scope(e)}
      group by grouping sets ((), (state_current), (manufacturing_type, fw_version))`);
  for (const e of ['bench', null]) {
    const name = e ?? 'whole fleet';
    await ab(
      `figures of now, ${name}`,
      () => scan(e),
      () => fleetNow(db, e, new Date()),
    );
    const from = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000).toISOString();
    await ab(
      `24 h: devices by creation, ${name}`,
      () =>
        db.execute(sql`select greatest(date_trunc('hour', created_at), ${from}::timestamptz), count(*)
          from devices where true ${scope(e)} group by 1`),
      () =>
        db.execute(sql`select date_trunc('hour', created_at), count(*)
          from devices where created_at >= ${from}::timestamptz ${scope(e)} group by 1`),
    );
  }
  for (const [label, q] of LISTS.slice(0, 3)) {
    const query = DeviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(q)));
    const where = deviceFilter('bench', query);
    await ab(
      `list count, bench, ${label}`,
      () => db.select({ total: count() }).from(devices).where(where),
      () => countDevices(db, 'bench', query, where),
    );
  }
  console.log('\n| read (after) | median |\n| --- | --- |');
  for (const [e, w] of [
    ['bench', '24h'],
    ['bench', '7d'],
    ['bench', '30d'],
    [null, '24h'],
    [null, '30d'],
  ] as const) {
    const t: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await getFleetHealth(db, e, w);
      t.push(performance.now() - t0);
    }
    console.log(`| fleet health ${e ?? 'whole fleet'} ${w} | ${t.sort((x, y) => x - y)[RUNS >> 1]!.toFixed(1)} ms |`);
  }
}
