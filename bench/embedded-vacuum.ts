// What a VACUUM of `devices` blocks on PGlite (issues 27, 32): run with
// `node --import tsx bench/embedded-vacuum.ts --reuse=<dir>` on a PGlite fill kept by
// `node bench/fleet-million.mjs --reuse=<dir> --devices=N` (the server must not be running on it;
// the fill is changed: rows updated, the table vacuumed). For each share of the devices updated
// as a report updates them (`updated_at`, indexed: no HOT), then `vacuum devices` and `analyze
// devices`, two statements as the embedded job runs them: how long it holds the one connection, and how long a first page's
// statement sent 50 ms into it waits (against the same statement alone just before).
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');

const dir = process.argv.find((a) => a.startsWith('--reuse='))?.slice('--reuse='.length);
if (!dir) throw new Error('--reuse=<dir> (a kept PGlite fill)');
const SHARES = (process.argv.find((a) => a.startsWith('--shares='))?.slice('--shares='.length) ?? '0,0.2,1,0.2')
  .split(',')
  .map(Number);
const database = await openDatabase({ dataDir: dir });
const db = database.db;

const page = sql`select name, state_current from devices order by name limit 20`;
const timed = async (q: Promise<unknown>) => {
  const t = performance.now();
  await q;
  return performance.now() - t;
};
const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from devices`)) as [{ n: number }];
console.log(`devices ${n}`);
for (const share of SHARES) {
  if (share > 0)
    await db.execute(sql`update devices set updated_at = now() where name in (
      select name from devices order by random() limit ${Math.round(n * share)})`);
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const [stats] = rowsOf<{ dead: number }>(
    await db.execute(sql`select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'devices'`),
  );
  const alone = await timed(db.execute(page));
  const vacuum = timed(db.execute(sql`vacuum devices`));
  await new Promise((r) => setTimeout(r, 50));
  const waited = await timed(db.execute(page));
  const held = await vacuum;
  const analyze = await timed(db.execute(sql`analyze devices`));
  console.log(
    `updated ${share * 100}% dead ${stats?.dead}: vacuum ${held.toFixed(0)} ms, analyze ${analyze.toFixed(0)} ms; ` +
      `page alone ${alone.toFixed(1)} ms, sent 50 ms into the vacuum ${waited.toFixed(0)} ms`,
  );
}
await database.close();
