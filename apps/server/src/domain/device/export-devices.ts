import { and, type AnyColumn, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { DeviceExportQuery } from '@fleet/shared/schemas/device';
import type { Db } from '../../db/client.ts';
import { csvLine, exportLines, plain, type ExportReads, type LineKey } from '../../db/export-lines.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
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

/**
 * A device's line of the file, written by the database: its fields in the header's order, core
 * §2's `day.month.year` dates in UTC, the last sign of life with its time (the table shows a
 * relative time; a file read later needs the moment itself), escaped as `csvLine` does.
 */
const line = (landlord: boolean): SQL => {
  const fields = [
    sql`${devices.name}`,
    sql`${devices.group}`,
    ...(landlord ? [sql`${devices.entity}`] : []),
    sql`${devices.fw_version}`,
    sql`${devices.state_current}`,
    plain(sql`to_char(${devices.created_at} at time zone 'UTC', 'DD.MM.YYYY')`),
    plain(sql`to_char(${devices.updated_at} at time zone 'UTC', 'DD.MM.YYYY HH24:MI:SS')`),
    // Not plain: nothing in the database keeps a battery from being negative.
    sql`${devices.battery}::text`,
    plain(sql`case when ${devices.is_charging} then 'yes' when not ${devices.is_charging} then 'no' end`),
  ];
  return csvLine(fields);
};

/** The sort columns that never hold null: one walk of the list, no second one for the nulls. */
const NOT_NULL = new Set<AnyColumn>([devices.name, devices.entity, devices.created_at, devices.updated_at]);
/** Columns whose indexes are declared `desc nulls last` with the id (0002); the others' ascend. */
const DESCENDING_INDEX = new Set<AnyColumn>([devices.created_at]);

/**
 * One walk of the list in index order, a batch at a time: `where` picks the rows, each batch
 * starts after the last row of the one before (`after`: its id and sort key), so every batch is
 * an index range of its own size, never a re-read of the rows already sent
 * (docs/decisions/2026-11-28-export-keyset.md). The database writes the lines and joins them a
 * thousand at a time, so a batch is a few strings in the server, not an array and ten strings a
 * row: a batch held across two young-generation collections was promoted to the old generation,
 * which then grew with the export until V8's next full collection (bench/notes/fleet-million.md).
 */
async function* walk(
  db: Db,
  landlord: boolean,
  column: AnyColumn,
  where: SQL | undefined,
  order: SQL[],
  after: (id: string, key: string | null) => SQL,
  reads: ExportReads & { batch: number },
): AsyncGenerator<Buffer> {
  const batchQuery = (last: LineKey | undefined) =>
    db
      .select({
        line: sql`${line(landlord)}`.as('line'),
        id: sql`${devices.name}`.as('id'),
        key: sql`${column}`.as('key'),
      })
      .from(devices)
      .where(and(where, last && after(last.id, last.key)))
      .orderBy(...order)
      .limit(reads.batch)
      .toSQL();
  yield* exportLines(db, batchQuery, reads);
}

/**
 * The filtered, sorted list as CSV with a header, in the list's order (the sort column, nulls last,
 * the id breaking ties): the rows with a value, by the row comparison `(column, id) < (last's)`
 * the indexes answer as a range, then the rows without one, by id. Scope as the list's.
 */
export async function* exportDevices(
  db: Db,
  scope: Scope,
  q: DeviceExportQuery,
  { batch = 5_000, parts }: Pick<ExportReads, 'batch' | 'parts'> = {},
) {
  const reads = { batch, parts };
  const landlord = scope === null;
  const where = deviceFilter(scope, q);
  const column = sortColumn(q);
  const desc = q.order === 'desc';
  // Within one walk the sort column holds no null, so the nulls clause only picks the index's order.
  const nulls = (c: AnyColumn) => sql.raw(DESCENDING_INDEX.has(c) === desc ? 'nulls last' : 'nulls first');
  const by = (c: AnyColumn, index = column) => sql`${c} ${sql.raw(desc ? 'desc' : 'asc')} ${nulls(index)}`;
  const beyond = desc ? sql.raw('<') : sql.raw('>');
  const byId = (id: string) => sql`${devices.name} ${beyond} ${id}`;
  const walks =
    column === devices.name
      ? [walk(db, landlord, column, where, [by(column)], byId, reads)]
      : [
          // The parameter takes the column's type, so a timestamp keeps its microseconds.
          walk(
            db,
            landlord,
            column,
            NOT_NULL.has(column) ? where : and(where, isNotNull(column)),
            [by(column), by(devices.name)],
            (id, key) => sql`(${column}, ${devices.name}) ${beyond} (${key}, ${id})`,
            reads,
          ),
          ...(NOT_NULL.has(column)
            ? []
            : [walk(db, landlord, column, and(where, isNull(column)), [by(devices.name, devices.name)], byId, reads)]),
        ];
  yield csvColumns(landlord).join(',') + '\r\n';
  for (const w of walks) yield* w;
}

/** The download's file name: the entity (or `all`) and the day. */
export const deviceExportName = (scope: string, now = new Date()) =>
  `devices-${scope.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.csv`;
