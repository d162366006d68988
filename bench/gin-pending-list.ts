// The device search's GIN pending lists at a million devices (issue 27): with `fastupdate` (GIN's
// default) each device update puts its trigram entries in a pending list that every search scans,
// flushed only when it reaches gin_pending_list_limit (4 MB), by autovacuum (never on PGlite) or by
// gin_clean_pending_list. Run on a fill kept by `node bench/fleet-million.mjs --reuse=<dir>`, the
// server stopped: `node --import tsx bench/gin-pending-list.ts --reuse=<dir> [--updates=20000]
// [--searches=20] [--rounds=2]` (PostgreSQL: DATABASE_URL set). For fastupdate on with GIN's 4 MB
// list, on with 256 kB, and off, alternated (A B C A B C): the ingest's update of --updates
// devices as the telemetry flush writes them (updateDevices, 250 a statement, a new battery and
// last-seen time, no history) with `bench`'s `search=lobby` count and first page after every 4
// statements (the pending list as the updates leave it), then gin_clean_pending_list (its time,
// the pages it flushed), then the search again. Leaves the indexes as migration 0031 does (a
// pending list of 256 kB, flushed). Since migration 0032 these indexes are on device_search and no
// telemetry update writes them: the bench is of the layout before it (run it at a commit before 0032).
import os from 'node:os';
import { count, sql } from 'drizzle-orm';
import type { DeviceNews } from '../apps/server/src/domain/telemetry/telemetry-queries.ts';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { devices } = await import('../apps/server/src/db/schema.ts');
const { deviceFilter, deviceOrdering } = await import('../apps/server/src/domain/device/device-filter.ts');
const { updateDevices } = await import('../apps/server/src/domain/telemetry/telemetry-queries.ts');
const { FLUSH_CHUNK } = await import('../apps/server/src/domain/telemetry/telemetry-batcher.ts');
const { DeviceListQuerySchema } = await import('@fleet/shared/schemas/device');

const opt = (name: string, dflt: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const dir = process.argv.find((a) => a.startsWith('--reuse='))?.slice('--reuse='.length);
if (!dir && !process.env.DATABASE_URL) throw new Error('--reuse=<dir> (a kept fill) or DATABASE_URL');
const UPDATES = opt('updates', 20_000);
const SEARCHES = opt('searches', 20);
const ROUNDS = opt('rounds', 2);
const INDEXES = ['devices_entity_name_trgm_idx', 'devices_entity_description_trgm_idx'];

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: String(dir) });
const db = database.db;
const deviceCount = Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from devices`))[0]!.n);

const ms = (t0: number) => performance.now() - t0;
const pct = (t: number[], p: number) =>
  [...t].sort((x, y) => x - y)[Math.min(t.length - 1, Math.floor((t.length * p) / 100))]!;
const f1 = (n: number) => n.toFixed(1);
const loadavg = () => os.loadavg()[0]!.toFixed(1);

/** Flushes the pending lists of both indexes; answers the pages flushed and the time it took. */
async function clean() {
  const t0 = performance.now();
  let pages = 0;
  for (const idx of INDEXES)
    pages += Number(
      rowsOf<{ n: string }>(await db.execute(sql`select gin_clean_pending_list(${idx}::regclass) as n`))[0]!.n,
    );
  return { pages, ms: ms(t0) };
}

/** `bench`'s `search=lobby`, count and first page as the list route reads them; the time of both together. */
async function search() {
  const query = DeviceListQuerySchema.parse({ limit: '20', search: 'lobby' });
  const where = deviceFilter('bench', query);
  const t0 = performance.now();
  await db.select({ total: count() }).from(devices).where(where);
  await db
    .select()
    .from(devices)
    .where(where)
    .orderBy(...deviceOrdering(query))
    .limit(20);
  return ms(t0);
}

const p50p99 = (t: number[]) => `${f1(pct(t, 50))} / ${f1(pct(t, 99))}`;

/**
 * The telemetry flush's update of UPDATES devices spread over every entity, FLUSH_CHUNK a
 * statement, with one search after every 4 statements (the pending list as the ingest leaves it).
 */
async function ingest(round: number) {
  const times: number[] = [];
  const searches: number[] = [];
  let changed = 0;
  const at = new Date().toISOString();
  for (let k = 0; k < UPDATES; k += FLUSH_CHUNK) {
    const batch: DeviceNews[] = [];
    for (let j = k; j < Math.min(UPDATES, k + FLUSH_CHUNK); j++) {
      const i = 1 + ((j * 7919 + round * 104_729) % deviceCount);
      batch.push({ name: i.toString(16).padStart(12, '0'), battery: (j + round) % 101, seen_at: at });
    }
    const t0 = performance.now();
    changed += (await updateDevices(db, batch)).length;
    times.push(ms(t0));
    if (times.length % 4 === 0) searches.push(await search());
  }
  return { changed, total: times.reduce((x, y) => x + y, 0), statements: p50p99(times), searches: p50p99(searches) };
}

console.log(
  `\n${deviceCount.toLocaleString('en-US')} devices, ${UPDATES.toLocaleString('en-US')} updates a run (${FLUSH_CHUNK} a statement), ${SEARCHES} searches a figure\n`,
);
console.log(
  '| round | fastupdate, pending list limit | ingest total, rows (statement p50 / p99) | search during the ingest p50 / p99 | clean: pages, ms | search after p50 / p99 | load |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
const MODES: [string, string][] = [
  ['on, 4 MB', 'fastupdate = on, gin_pending_list_limit = 4096'],
  ['on, 256 kB', 'fastupdate = on, gin_pending_list_limit = 256'],
  ['off', 'fastupdate = off'],
];
const setIndexes = async (options: string) => {
  for (const idx of INDEXES) {
    await db.execute(sql.raw(`alter index ${idx} reset (fastupdate, gin_pending_list_limit)`));
    await db.execute(sql.raw(`alter index ${idx} set (${options})`));
  }
};
for (let round = 1; round <= ROUNDS; round++)
  for (const [m, [label, options]] of MODES.entries()) {
    await setIndexes(options);
    await clean();
    const load = loadavg();
    const ing = await ingest(round * MODES.length + m);
    const c = await clean();
    const after: number[] = [];
    for (let i = 0; i < SEARCHES; i++) after.push(await search());
    console.log(
      `| ${round} | ${label} | ${f1(ing.total)} ms, ${ing.changed} (${ing.statements} ms) | ${ing.searches} ms | ${c.pages}, ${f1(c.ms)} | ${p50p99(after)} ms | ${load} → ${loadavg()} |`,
    );
  }
await setIndexes(MODES[1]![1]); // as migration 0031 leaves them
await clean();
await database.close();
