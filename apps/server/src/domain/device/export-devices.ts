import { and, type AnyColumn, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { DeviceExportQuery } from '@fleet/shared/schemas/device';
import type { Pool } from 'pg';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { csvField } from '../audit/export-audit.ts';
import { deviceFilter, sortColumn } from './device-filter.ts';

/** The columns of the device table (core §2), in its order; Entity only on the landlord's list. */
export const csvColumns = (landlord: boolean) => [
  'Device ID',
  'Groups',
  ...(landlord ? ['Entity'] : []),
  'Version',
  'Status',
  'Created Date',
  'Last Updated',
  'Battery',
  'Charging',
];

/** A batch's values as PostgreSQL's text, untouched: the file needs no Date, number or boolean. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

/**
 * The file's fields as the database's text, in the header's order, and then the sort key (the
 * row's sort value as text): core §2's `day.month.year` dates in UTC, the last sign of life with
 * its time (the table shows a relative time; a file read later needs the moment itself).
 */
const fields = (landlord: boolean, column: AnyColumn): SQL[] => [
  sql`${devices.name}`,
  sql`${devices.group}`,
  ...(landlord ? [sql`${devices.entity}`] : []),
  sql`${devices.fw_version}`,
  sql`${devices.state_current}`,
  sql`to_char(${devices.created_at} at time zone 'UTC', 'DD.MM.YYYY')`,
  sql`to_char(${devices.updated_at} at time zone 'UTC', 'DD.MM.YYYY HH24:MI:SS')`,
  sql`${devices.battery}`,
  sql`case when ${devices.is_charging} then 'yes' when not ${devices.is_charging} then 'no' end`,
  sql`${column}::text`,
];

type Row = (string | null)[];
/** One device's line of the file: its fields but the last (the sort key). */
const csvLine = (row: Row) => {
  let line = csvField(row[0]);
  for (let i = 1; i < row.length - 1; i++) line += ',' + csvField(row[i]);
  return line + '\r\n';
};

/** The sort columns that never hold null: one walk of the list, no second one for the nulls. */
const NOT_NULL = new Set<AnyColumn>([devices.name, devices.entity, devices.created_at, devices.updated_at]);
/** Columns whose indexes are declared `desc nulls last` with the id (0002); the others' ascend. */
const DESCENDING_INDEX = new Set<AnyColumn>([devices.created_at]);

/**
 * One walk of the list in index order, a batch at a time: `where` picks the rows, each batch
 * starts after the last row of the one before (`after`: its id and sort key), so every batch is
 * an index range of its own size, never a re-read of the rows already sent
 * (docs/decisions/2026-11-28-export-keyset.md). The rows come as arrays of text.
 */
async function* walk(
  db: Db,
  select: SQL[],
  where: SQL | undefined,
  order: SQL[],
  after: (id: string, key: string | null) => SQL,
  batch: number,
): AsyncGenerator<Row[]> {
  const pool = (db as unknown as { $client: Pool }).$client;
  const read = async (last: Row | undefined) => {
    const query = db
      .select({ row: sql.join(select, sql`, `) })
      .from(devices)
      .where(and(where, last && after(last[0]!, last[last.length - 1]!)))
      .orderBy(...order)
      .limit(batch)
      .toSQL();
    const answer = await pool.query<Row>({ text: query.sql, values: query.params, rowMode: 'array', types: AS_TEXT });
    return answer.rows;
  };
  // The next batch is asked for before this one is written: the database reads while the rows
  // become text. At most one batch waits ahead of the reader.
  let next: Promise<Row[]> | undefined = read(undefined);
  try {
    while (next) {
      const rows: Row[] = await next;
      next = rows.length < batch ? undefined : read(rows[rows.length - 1]);
      if (rows.length > 0) yield rows;
    }
  } finally {
    // A reader gone midway (the download cancelled) leaves the batch asked for unread.
    next?.catch(() => undefined);
  }
}

/**
 * The filtered, sorted list as CSV with a header, in the list's order (the sort column, nulls last,
 * the id breaking ties): the rows with a value, by the row comparison `(column, id) < (last's)`
 * the indexes answer as a range, then the rows without one, by id. Scope as the list's.
 */
export async function* exportDevices(db: Db, scope: Scope, q: DeviceExportQuery, batch = 5_000) {
  const landlord = scope === null;
  const where = deviceFilter(scope, q);
  const column = sortColumn(q);
  const desc = q.order === 'desc';
  // Within one walk the sort column holds no null, so the nulls clause only picks the index's order.
  const nulls = (c: AnyColumn) => sql.raw(DESCENDING_INDEX.has(c) === desc ? 'nulls last' : 'nulls first');
  const by = (c: AnyColumn, index = column) => sql`${c} ${sql.raw(desc ? 'desc' : 'asc')} ${nulls(index)}`;
  const beyond = desc ? sql.raw('<') : sql.raw('>');
  const byId = (id: string) => sql`${devices.name} ${beyond} ${id}`;
  const select = fields(landlord, column);
  const walks =
    column === devices.name
      ? [walk(db, select, where, [by(column)], byId, batch)]
      : [
          // The parameter takes the column's type, so a timestamp keeps its microseconds.
          walk(
            db,
            select,
            NOT_NULL.has(column) ? where : and(where, isNotNull(column)),
            [by(column), by(devices.name)],
            (id, key) => sql`(${column}, ${devices.name}) ${beyond} (${key}, ${id})`,
            batch,
          ),
          ...(NOT_NULL.has(column)
            ? []
            : [walk(db, select, and(where, isNull(column)), [by(devices.name, devices.name)], byId, batch)]),
        ];
  yield csvColumns(landlord).join(',') + '\r\n';
  for (const rows of walks) for await (const part of rows) yield part.map(csvLine).join('');
}

/** The download's file name: the entity (or `all`) and the day. */
export const deviceExportName = (scope: string, now = new Date()) =>
  `devices-${scope.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.csv`;
