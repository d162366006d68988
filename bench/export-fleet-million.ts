// The device export at a million devices (issue 27), in process on a kept fill (no HTTP): run
// with `node --import tsx bench/export-fleet-million.ts --reuse=<dir>` on a fill kept by
// `node bench/fleet-million.mjs --reuse=<dir>` (PGlite: the server must not be running on it;
// PostgreSQL under `scripts/ci/with-services.sh`, DATABASE_URL set). Reads the first `--rows=`
// rows (default 100,000) of the superadmin's export (newest first, as the button sends it), then
// the whole export of the entity `bench` for every sort in both orders, each with the walk before
// (one keyset whose OR the indexes cannot answer as a range, kept here) and after
// (export-devices.ts), alternated A B A B over `--runs=` (default 3): median rows/s and the CPU
// seconds of the process (the PGlite worker thread included) per 100,000 rows; `--only=whole|bench`
// runs one of the two. `--explain`
// instead: EXPLAIN ANALYZE of a batch from the middle of each of those walks, before and after.
import { createHash } from 'node:crypto';
import { and, getTableColumns, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DeviceExportQuery } from '@fleet/shared/schemas/device';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { devices } = await import('../apps/server/src/db/schema.ts');
const { deviceFilter, deviceOrdering, sortColumn } = await import('../apps/server/src/domain/device/device-filter.ts');
const { csvColumns, exportDevices } = await import('../apps/server/src/domain/device/export-devices.ts');
const { DeviceExportQuerySchema, DEVICE_SORTS } = await import('@fleet/shared/schemas/device');

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const dir = flag('reuse');
if (!dir && !process.env.DATABASE_URL) throw new Error('--reuse=<dir> (a kept fill) or DATABASE_URL');
const ROWS = Number(flag('rows') ?? 100_000);
const RUNS = Number(flag('runs') ?? 3);
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: String(dir) });
const db = database.db;
type Db = typeof db;
type Scope = string | null;

const { csvField } = await import('../apps/server/src/domain/audit/export-audit.ts');

const pad = (n: number) => String(n).padStart(2, '0');
function csvDate(date: Date, withTime = false): string {
  const day = `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
  if (!withTime) return day;
  return `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

const csvRow = (d: typeof devices.$inferSelect, landlord: boolean) =>
  [
    d.name,
    d.group,
    ...(landlord ? [d.entity] : []),
    d.fw_version,
    d.state_current,
    csvDate(d.created_at),
    csvDate(d.updated_at, true),
    d.battery,
    d.is_charging === null ? null : d.is_charging ? 'yes' : 'no',
  ]
    .map(csvField)
    .join(',');

/** The walk before: 1,000 rows a batch after the last row by an OR, read from the index's start each time. */
async function* before(db: Db, scope: Scope, q: DeviceExportQuery, batch = 1_000) {
  const where = deviceFilter(scope, q);
  const column = sortColumn(q);
  const selection = { ...getTableColumns(devices), sort_key: sql<string | null>`${column}::text` };
  let key: { value: string | null; name: string } | undefined;
  yield csvColumns(scope === null).join(',') + '\r\n';
  for (;;) {
    const rows = await db
      .select(selection)
      .from(devices)
      .where(and(where, key && after(q, key)))
      .orderBy(...deviceOrdering(q))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows.map((r) => csvRow(r, scope === null) + '\r\n').join('');
    key = { value: rows[rows.length - 1]!.sort_key, name: rows[rows.length - 1]!.name };
    if (rows.length < batch) return;
  }
}

function after(q: DeviceExportQuery, key: { value: string | null; name: string }): SQL | undefined {
  const column = sortColumn(q);
  const nameBeyond = (q.order === 'desc' ? lt : gt)(devices.name, key.name);
  if (column === devices.name) return nameBeyond;
  if (key.value === null) return and(isNull(column), nameBeyond);
  const value = sql`${key.value}`;
  return or(
    q.order === 'desc' ? sql`${column} < ${value}` : sql`${column} > ${value}`,
    and(sql`${column} = ${value}`, nameBeyond),
    isNull(column),
  );
}

type Walk = (db: Db, scope: Scope, q: DeviceExportQuery) => AsyncGenerator<string>;
const WALKS: [string, Walk][] = [
  ['before', before],
  ['after', exportDevices],
];

/**
 * Reads the lines of a walk until `limit` (a multiple of both walks' batches, so both stop at the
 * same line); answers lines, ms, CPU ms (every thread of the process) and the bytes' SHA-1.
 */
async function read(walk: Walk, scope: Scope, q: DeviceExportQuery, limit: number) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const hash = createHash('sha1');
  let rows = 0;
  for await (const part of walk(db, scope, q)) {
    hash.update(part);
    for (let i = part.indexOf('\n'); i !== -1; i = part.indexOf('\n', i + 1)) rows++;
    if (rows >= limit) break;
  }
  const cpu = process.cpuUsage(cpu0);
  return { rows, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, sha1: hash.digest('hex') };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const ALL_CASES: [string, Scope, DeviceExportQuery, number][] = [
  [`whole fleet, first ${ROWS.toLocaleString('en-US')} rows`, null, DeviceExportQuerySchema.parse({}), ROWS],
  ...DEVICE_SORTS.flatMap((sort) =>
    (['desc', 'asc'] as const).map((order): [string, Scope, DeviceExportQuery, number] => [
      `bench, sort ${sort} ${order}`,
      'bench',
      DeviceExportQuerySchema.parse({ sort, order }),
      Infinity,
    ]),
  ),
];

// `--only=whole` or `--only=bench`: the superadmin's first rows, or the entity's every sort.
const CASES = ALL_CASES.filter(([label]) => label.startsWith(flag('only') ?? ''));

const explain = async (label: string, query: SQL) => {
  const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, costs off) ${query}`))
    .map((r) => Object.values(r)[0])
    .join('\n');
  console.log(`\n## ${label}: ${/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]} ms\n${plan}`);
};

console.log(
  `load ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (process.argv.includes('--explain')) {
  // The batch starting at the middle row of each walk, as each walk's query would read it.
  const recorded: { getSQL(): SQL }[] = [];
  // select(…).from(…) is the query the walk then narrows in place (where, order, limit).
  const recording = new Proxy(db, {
    get: (target, key) =>
      key === 'select'
        ? (...args: Parameters<Db['select']>) => {
            const builder = target.select(...args);
            return {
              from: (table: typeof devices) => {
                const query = builder.from(table);
                recorded.push(query);
                return query;
              },
            };
          }
        : (Reflect.get(target, key, target) as unknown),
  });
  for (const [label, scope, q, limit] of CASES)
    for (const [name, walk] of WALKS) {
      recorded.length = 0;
      let rows = 0;
      for await (const part of walk(recording, scope, q)) {
        rows += part.split('\n').length - 1;
        if (rows >= Math.min(limit, 20_000) / 2) break;
      }
      await explain(`${label}, ${name}, batch ${recorded.length}`, recorded.at(-1)!.getSQL());
    }
} else {
  console.log(
    `\n| export read (median of ${RUNS}, alternated) | rows | before rows/s | after rows/s | before CPU s/100k | after CPU s/100k | same bytes |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [label, scope, q, limit] of CASES) {
    const runs: Record<string, { rate: number[]; cpu: number[]; rows: number; sha1: Set<string> }> = {};
    for (let i = 0; i < RUNS; i++)
      for (const [name, walk] of WALKS) {
        const r = await read(walk, scope, q, limit);
        const m = (runs[name] ??= { rate: [], cpu: [], rows: r.rows, sha1: new Set() });
        m.sha1.add(r.sha1);
        m.rate.push((r.rows / r.ms) * 1000);
        m.cpu.push((r.cpuMs / 1000 / r.rows) * 100_000);
      }
    const rate = (n: string) => Math.round(median(runs[n]!.rate)).toLocaleString('en-US');
    const cpu = (n: string) => median(runs[n]!.cpu).toFixed(2);
    const sha1 = [...runs.before!.sha1, ...runs.after!.sha1];
    const same = runs.before!.rows === runs.after!.rows && new Set(sha1).size === 1;
    console.log(
      `| ${label} | ${runs.after!.rows - 1} | ${rate('before')} | ${rate('after')} | ${cpu('before')} | ${cpu('after')} | ${same ? 'yes' : 'NO'} |`,
    );
  }
}
await database.close();
