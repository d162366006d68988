/** One table's counters: its rows as the planner counts them (`pg_class.reltuples`), the rest from `pg_stat_user_tables`. */
export interface TableCounters {
  /** The table's name, qualified and quoted where it must be (`public.devices`): safe to put in a statement. */
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
}

/** What a run does to one table: a vacuum (with analyze) or an analyze alone. */
export interface Maintenance {
  table: string;
  work: 'vacuum' | 'analyze';
}

/** PostgreSQL's autovacuum defaults (autovacuum_vacuum_threshold, …_scale_factor). */
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
/** autovacuum_analyze_threshold, autovacuum_analyze_scale_factor. */
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;

/**
 * The one table a maintenance run sees to, as autovacuum would choose with its default
 * thresholds: the table whose dead rows pass `50 + 0.2 × live` by the most is vacuumed; if none
 * does, the one whose changes since its last analyze pass `50 + 0.1 × live` by the most is
 * analyzed; else nothing. Pure.
 */
export function chooseMaintenance(tables: readonly TableCounters[]): Maintenance | null {
  const worst = (over: (t: TableCounters) => number) => {
    let best: TableCounters | null = null;
    let bestOver = 0;
    for (const t of tables) {
      const o = over(t);
      if (o > bestOver) [best, bestOver] = [t, o];
    }
    return best;
  };
  const vacuum = worst((t) => t.dead - (VACUUM_BASE + VACUUM_SCALE * t.live));
  if (vacuum) return { table: vacuum.table, work: 'vacuum' };
  const analyze = worst((t) => t.modifiedSinceAnalyze - (ANALYZE_BASE + ANALYZE_SCALE * t.live));
  return analyze ? { table: analyze.table, work: 'analyze' } : null;
}
