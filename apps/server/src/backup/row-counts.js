// @ts-check
// Each table's row count, for a backup's manifest (plain JavaScript: the database worker and the
// upgrade fixture's script use it on a PGlite instance directly).

/**
 * Rows of every table and partitioned table (not their partitions: a parent's count includes
 * them) in `public`, plus `drizzle.__drizzle_migrations`, the migrations applied.
 * @param {{ query(sql: string): Promise<{ rows: unknown[] }> }} db
 * @returns {Promise<Record<string, number>>}
 */
export async function countRows(db) {
  const tables = await db.query(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and not c.relispartition and n.nspname in ('public', 'drizzle') order by 1`,
  );
  /** @type {Record<string, number>} */
  const rows = {};
  for (const { name } of /** @type {{ name: string }[]} */ (tables.rows)) {
    const [schema, table] = /** @type {[string, string]} */ (name.split('.'));
    const r = /** @type {{ rows: { n: number }[] }} */ (
      await db.query(`select count(*)::int as n from "${schema}"."${table}"`)
    );
    rows[schema === 'public' ? table : name] = r.rows[0]?.n ?? 0;
  }
  return rows;
}
