import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { every, type Periodic } from '../lib/periodic.ts';
import type { Db } from './client.ts';
import { rowsOf } from './raw-sql.ts';
import { chooseMaintenance, type Maintenance, type TableCounters } from './vacuum-rule.ts';

/** How often the embedded database is looked after: autovacuum_naptime's default. */
export const EMBEDDED_VACUUM_MS = 60_000;

/**
 * Vacuums (with analyze) or analyzes at most one table of `db`, the one autovacuum would take
 * first (vacuum-rule.ts), and says which and how long it took; null when no table is due. Each
 * statement is its own: never inside a transaction, which a VACUUM refuses. Called outside any
 * request, its statements take the background lane of the database's one connection.
 */
export async function maintainOneTable(db: Db): Promise<(Maintenance & { ms: number }) | null> {
  // PGlite writes a session's counters to the statistics only when idle a second after the last
  // write; forced, the next statement reads them as they are.
  await db.execute(sql`select pg_stat_force_next_flush()`);
  // The rows a table holds as autovacuum counts them: pg_class's estimate (-1 before the first
  // vacuum or analyze), which outlives a restart; the statistics' own count starts at 0 on each.
  const tables = rowsOf<TableCounters>(
    await db.execute(sql`
      select format('%I.%I', s.schemaname, s.relname) as "table", greatest(c.reltuples, 0)::float8 as live,
        s.n_dead_tup::float8 as dead, s.n_mod_since_analyze::float8 as "modifiedSinceAnalyze"
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid`),
  );
  const chosen = chooseMaintenance(tables);
  if (!chosen) return null;
  const started = performance.now();
  // The name is PostgreSQL's own, quoted by format('%I'). The vacuum and the analyze are two
  // statements, so an operator's query waiting for the connection goes between them.
  if (chosen.work === 'vacuum') await db.execute(sql.raw(`vacuum ${chosen.table}`));
  await db.execute(sql.raw(`analyze ${chosen.table}`));
  return { ...chosen, ms: Math.round(performance.now() - started) };
}

/**
 * What autovacuum does on PostgreSQL, for the embedded database, which runs none: every
 * `intervalMs`, one table due is vacuumed or analyzed (`maintainOneTable`). A failure is logged
 * and the next run tries again; `stop()` waits for a run under way.
 */
export function startEmbeddedVacuum(db: Db, log: FastifyBaseLogger, intervalMs = EMBEDDED_VACUUM_MS): Periodic {
  return every(
    intervalMs,
    async () => {
      const done = await maintainOneTable(db);
      if (done) log.info(done, `database: ${done.work} of ${done.table}`);
    },
    (err) => log.error({ err }, 'database: vacuum failed'),
  );
}
