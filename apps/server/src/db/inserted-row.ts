import { getTableColumns, getTableName, SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * The row an INSERT of `values` makes, every column filled: a value given, else the column's
 * constant default, else null. A column the database fills (a default of SQL such as now(), an
 * identity, a default function) must be given, so what is answered is exactly what is stored and
 * can be told (an audit entry's after-state) in the INSERT's own statement.
 */
export function insertedRow<T extends PgTable>(table: T, values: T['$inferInsert']): T['$inferSelect'] {
  const given = values as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (given[key] !== undefined) row[key] = given[key];
    else if (column.default instanceof SQL || column.defaultFn || column.onUpdateFn || column.generatedIdentity)
      throw new Error(`insertedRow: ${getTableName(table)}.${key} is filled by the database; give its value`);
    else row[key] = column.default ?? null;
  }
  return row as T['$inferSelect'];
}
