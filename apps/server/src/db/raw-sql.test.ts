import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { recordset, rowsOf } from './raw-sql.ts';
import { beaconEvents, provisionFiles } from './schema.ts';

const render = (q: Parameters<PgDialect['sqlToQuery']>[0]) => new PgDialect().sqlToQuery(q);

describe('recordset', () => {
  it('reads the column list and SQL types from the schema, rows as one JSON parameter', () => {
    const rows = [
      { id: 'a5f0c0de-0000-4000-8000-000000000001', rssi: -60, message_sent: true, timestamp: '2026-11-25T00:00:00Z' },
    ];
    const q = render(
      recordset(rows, { table: beaconEvents, columns: ['id', 'rssi', 'message_sent', 'timestamp', 'medications'] }),
    );
    expect(q.sql).toBe(
      'jsonb_to_recordset($1::jsonb) as v("id" uuid, "rssi" smallint, "message_sent" boolean, "timestamp" timestamp with time zone, "medications" jsonb)',
    );
    expect(JSON.parse(q.params[0] as string)).toEqual(rows);
  });

  it('adds columns of its own after the table ones, under the name asked for', () => {
    const q = render(
      recordset([{ session_id: 's', device_path: '/a', ord: 0 }], {
        table: provisionFiles,
        columns: ['session_id', 'device_path'],
        extra: { ord: 'int' },
        as: 'f',
      }),
    );
    expect(q.sql).toBe('jsonb_to_recordset($1::jsonb) as f("session_id" uuid, "device_path" text, "ord" int)');
  });

  it('names only columns of the table (checked by the compiler)', () => {
    // @ts-expect-error: beacon_events has no column `battery`.
    expect(() => recordset([], { table: beaconEvents, columns: ['battery'] })).toThrow();
  });
});

describe('rowsOf', () => {
  it('answers the rows of a raw answer', () => {
    expect(rowsOf<{ n: number }>({ rows: [{ n: 1 }], fields: [] })).toEqual([{ n: 1 }]);
  });
});
