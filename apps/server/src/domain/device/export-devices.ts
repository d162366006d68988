import { and, getTableColumns, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DeviceExportQuery } from '@fleet/shared/schemas/device';
import type { Db } from '../../db/client.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { csvField } from '../audit/export-audit.ts';
import { deviceFilter, deviceOrdering, sortColumn } from './device-filter.ts';
import type { DeviceRow } from './device-scope.ts';

/** The columns of the device table (core §2), in its order; Entity only on the landlord's list. */
const columns = (landlord: boolean) => [
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

const pad = (n: number) => String(n).padStart(2, '0');
/** core §2's `day.month.year` (UTC); `withTime` adds hours, minutes and seconds. */
export function csvDate(date: Date, withTime = false): string {
  const day = `${pad(date.getUTCDate())}.${pad(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
  if (!withTime) return day;
  return `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

const csvRow = (d: DeviceRow, landlord: boolean) =>
  [
    d.name,
    d.group,
    ...(landlord ? [d.entity] : []),
    d.fw_version,
    d.state_current,
    csvDate(d.created_at),
    // The table shows a relative time; a file read later needs the moment itself.
    csvDate(d.updated_at, true),
    d.battery,
    d.is_charging === null ? null : d.is_charging ? 'yes' : 'no',
  ]
    .map(csvField)
    .join(',');

/**
 * The rows after `key` (the last row's sort value as PostgreSQL's text, and its id) in the order of
 * `deviceOrdering`: nulls last in both directions, the id breaking ties.
 */
function after(q: DeviceExportQuery, key: { value: string | null; name: string }): SQL | undefined {
  const column = sortColumn(q);
  const beyond = q.order === 'desc' ? lt : gt;
  const nameBeyond = beyond(devices.name, key.name);
  if (column === devices.name) return nameBeyond;
  if (key.value === null) return and(isNull(column), nameBeyond);
  // The parameter takes the column's type, so a timestamp keeps its microseconds.
  const value = sql`${key.value}`;
  return or(
    q.order === 'desc' ? sql`${column} < ${value}` : sql`${column} > ${value}`,
    and(sql`${column} = ${value}`, nameBeyond),
    isNull(column),
  );
}

/**
 * The filtered, sorted list as CSV with a header, read a batch at a time by keyset (never an
 * offset), so a million rows leave with the memory of one batch. Scope as the list's.
 */
export async function* exportDevices(db: Db, scope: Scope, q: DeviceExportQuery, batch = 1_000) {
  const landlord = scope === null;
  const where = deviceFilter(scope, q);
  const selection = { ...getTableColumns(devices), sort_key: sql<string | null>`${sortColumn(q)}::text` };
  yield columns(landlord).join(',') + '\r\n';
  let key: { value: string | null; name: string } | undefined;
  for (;;) {
    const rows = await db
      .select(selection)
      .from(devices)
      .where(and(where, key && after(q, key)))
      .orderBy(...deviceOrdering(q))
      .limit(batch);
    if (rows.length === 0) return;
    yield rows.map((r) => csvRow(r, landlord) + '\r\n').join('');
    const last = rows[rows.length - 1]!;
    key = { value: last.sort_key, name: last.name };
    if (rows.length < batch) return;
  }
}

/** The download's file name: the entity (or `all`) and the day. */
export const deviceExportName = (scope: string, now = new Date()) =>
  `devices-${scope.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.csv`;
