import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** The rows of a hand-written query's answer (`db.execute`): node-postgres and PGlite both answer `{ rows }`. */
export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** SQL types a record set may give a column that is not one of the table's. */
export type ExtraColumnType = 'int' | 'bigint' | 'smallint' | 'text' | 'uuid' | 'jsonb' | 'boolean' | 'timestamptz';

type ColumnKey<T extends PgTable> = keyof T['_']['columns'] & string;

/** What a record set is built of: the table, which of its columns, and any columns of its own. */
export interface RecordsetShape<T extends PgTable, K extends ColumnKey<T>, E extends string> {
  table: T;
  columns: readonly K[];
  extra?: Readonly<Record<E, ExtraColumnType>>;
  /** The relation's name in the query; `v` unless said. */
  as?: string;
}

/**
 * `jsonb_to_recordset(<rows as JSON>) as v(col type, …)`: rows sent as one parameter and read
 * as a relation whose column names and SQL types come from the Drizzle table, so renaming or
 * retyping a column breaks the compiler (or this call), not the query in production. Values
 * travel as JSON: dates as ISO strings, missing keys as null.
 */
export function recordset<T extends PgTable, K extends ColumnKey<T>, E extends string = never>(
  rows: ReadonlyArray<NoInfer<{ [P in K | E]?: unknown }>>,
  shape: RecordsetShape<T, K, E>,
): SQL {
  const all = getTableColumns(shape.table);
  const list = [
    ...shape.columns.map((key) => {
      const column = all[key]!;
      // Rows are keyed by property; the relation by column name. The schema keeps them equal.
      if (column.name !== key) throw new Error(`recordset: column ${key} is named ${column.name} in the database`);
      return `"${key}" ${column.getSQLType()}`;
    }),
    ...Object.entries<ExtraColumnType>(shape.extra ?? ({} as Record<E, ExtraColumnType>)).map(
      ([key, type]) => `"${key}" ${type}`,
    ),
  ];
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as ${sql.raw(shape.as ?? 'v')}(${sql.raw(list.join(', '))})`;
}
