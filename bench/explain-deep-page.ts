// Where a deep page of the device list spends its time (issue 27: deep ≤ 1.2× first): run with
// `node --import tsx bench/explain-deep-page.ts --reuse=<dir>` on a fill kept by
// `node bench/fleet-million.mjs --reuse=<dir>` (PGlite: the server must not be running on it;
// PostgreSQL under `scripts/ci/with-services.sh`, DATABASE_URL set). For `bench`'s filters and
// sorts of the bench, EXPLAIN (ANALYZE, BUFFERS) of the page the route reads for the first, the
// middle and the deep (95 %) page, as the rows read whole past the offset (before) and as
// the deferred join reads them (pageQuery, listDevices' form on PostgreSQL); `--ab` instead: both
// forms timed alternated (A B A B …), median of `--runs=15`, per page.
import { sql, type SQLWrapper } from 'drizzle-orm';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { deviceFilter } = await import('../apps/server/src/domain/device/device-filter.ts');
const { countDevices } = await import('../apps/server/src/domain/device/count-devices.ts');
const { pageQuery } = await import('../apps/server/src/domain/device/list-devices.ts');
const { DeviceListQuerySchema } = await import('@fleet/shared/schemas/device');

const dir = process.argv.find((a) => a.startsWith('--reuse='))?.slice('--reuse='.length);
if (!dir && !process.env.DATABASE_URL) throw new Error('--reuse=<dir> (a kept fill) or DATABASE_URL');
const AB = process.argv.includes('--ab');
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 15);
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: String(dir) });
const db = database.db;

const LISTS: [string, string][] = [
  ['no filter', ''],
  ['status=ERROR', 'status=ERROR'],
  ['battery=Charging', 'battery=Charging'],
  ['type=CC2', 'type=CC2'],
  ['group=G_07', 'group=G_07'],
  ['seen=unresponsive', 'seen=unresponsive'],
  ['created=30d', 'created=30d'],
  ...['updated_at', 'name', 'battery', 'state', 'fw_version', 'group'].map((s): [string, string] => [
    `sort ${s} asc`,
    `sort=${s}&order=asc`,
  ]),
];

type Page = { offset: number; limit: number; reverse: boolean };
/** The offset listDevices reads for the page at `share` of `total`, from the nearer end. */
function pageAt(total: number, share: number): Page {
  const offset = Math.floor((total * share) / 20) * 20;
  const limit = Math.min(20, total - offset);
  const fromEnd = offset > total / 2;
  return { offset: fromEnd ? total - offset - limit : offset, limit, reverse: fromEnd };
}

async function explain(label: string, query: SQLWrapper) {
  const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, buffers, costs off) ${query}`))
    .map((r) => Object.values(r)[0])
    .join('\n');
  console.log(`\n## ${label}: ${/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]} ms\n${plan}`);
}

async function timeInto(f: () => Promise<unknown>, t: number[]) {
  const t0 = performance.now();
  await f();
  t.push(performance.now() - t0);
}
const mid = (t: number[]) => t.sort((x, y) => x - y)[t.length >> 1]!.toFixed(2);

if (AB) console.log(`| read (median of ${RUNS}, alternated) | page | before | now |\n| --- | --- | --- | --- |`);
for (const [label, qs] of LISTS.filter(([l]) => !ONLY || l === ONLY)) {
  const q = DeviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(`limit=20&${qs}`)));
  const where = deviceFilter('bench', q);
  const total = await countDevices(db, 'bench', q, where);
  for (const [name, share] of [
    ['first', 0],
    ['middle', 0.5],
    ['deep', 0.95],
  ] as const) {
    const page = pageAt(total, share);
    // Before: the rows read whole past the offset; now: the deferred join.
    const before = () => pageQuery(db, where, q, page, false);
    const now = () => pageQuery(db, where, q, page, true);
    if (!AB) {
      await explain(`${label} (${total}), ${name} page, before`, before());
      await explain(`${label} (${total}), ${name} page, now`, now());
      continue;
    }
    const [a, b]: number[][] = [[], []];
    for (let i = 0; i < RUNS; i++) {
      await timeInto(before, a);
      await timeInto(now, b);
    }
    console.log(`| ${label} (${total}) | ${name} | ${mid(a)} ms | ${mid(b)} ms |`);
  }
}
await database.close();
