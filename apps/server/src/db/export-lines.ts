import { sql, type SQL } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { Db } from './client.ts';
import { copyRows } from './copy-rows.ts';
import type { PartPool } from '../lib/part-pool.ts';

/**
 * Export files the database writes (docs/decisions/2026-11-28-export-lines-in-the-database.md):
 * the device export and the audit export read their rows as lines of text the database wrote and
 * joined, a few Buffers a batch in the server instead of an object and a string a field.
 */

/**
 * A field as the tests' reference csvField writes it (test/helpers/csv-field.ts), in SQL: empty for null, a leading formula
 * character defused by a quote, quoted with its quotes doubled when it holds a quote, a comma or a
 * line break. One regular expression a field finds the common case: the text as it is. No
 * subquery: a scalar subquery is an executor run of its own for every row that needs escaping.
 */
export const csvSql = (v: SQL) => sql`case when ${v} is null then ''
  when ${v} !~ '^[-=+@\t\r]|[",\r\n]' then ${v}
  when ${v} !~ '[",\r\n]' then '''' || ${v}
  else '"' || replace(case when ${v} ~ '^[-=+@\t\r]' then '''' || ${v} else ${v} end, '"', '""') || '"' end`;

/**
 * A jsonb column's text as csvSql writes it, the text made once: an object's text starts with `{`
 * (no formula) and holds quotes unless it is `{}`, so it is quoted as it is. Any other JSON value
 * goes through csvSql. csvSql of `column::text` made the text up to five times a row.
 */
export const csvJson = (column: SQL) => sql`case when ${column} is null then ''
  when jsonb_typeof(${column}) <> 'object' then ${csvSql(sql`${column}::text`)}
  when ${column} = '{}'::jsonb then '{}'
  else '"' || replace(${column}::text, '"', '""') || '"' end`;

/** A field whose text never needs escaping (csvFields): see `plain`. */
export type PlainField = { plain: SQL };

/**
 * A field whose text can never start with a formula character nor hold a quote, a comma or a
 * line break (a date `to_char` wrote, `yes`/`no`, a non-negative count): csvFields writes it as
 * it is and leaves it out of the line's test, so it is made once a row, not twice.
 */
export const plain = (v: SQL): PlainField => ({ plain: v });

const isPlain = (f: SQL | PlainField): f is PlainField => 'plain' in f;

/**
 * `fields` (text or null) as CSV, without a line end. One regular expression a line finds the
 * common case, no field to escape (none starts with a formula character or holds a quote, a
 * comma or a line break): the fields joined by commas as they are; else every field goes through
 * `csvSql`. The test runs on the fields joined by chr(1), so a separator is not taken for a comma,
 * and only on the fields not marked `plain`.
 */
export const csvFields = (fields: (SQL | PlainField)[]): SQL => {
  const text = (f: SQL | PlainField) => sql`coalesce(${isPlain(f) ? f.plain : f}, '')`;
  const tested = fields.filter((f) => !isPlain(f));
  const common = sql.join(fields.map(text), sql` || ',' || `);
  if (tested.length === 0) return common;
  const escaped = sql.join(
    fields.map((f) => (isPlain(f) ? text(f) : csvSql(f))),
    sql` || ',' || `,
  );
  return sql`case when ${sql.join(tested.map(text), sql` || chr(1) || `)} !~ '(^|\x01)[-=+@\t\r]|[",\r\n]' then ${common} else ${escaped} end`;
};

/** A CSV line of `fields` (csvFields), ended by CRLF. */
export const csvLine = (fields: (SQL | PlainField)[]): SQL => sql`${csvFields(fields)} || chr(13) || chr(10)`;

/** Where a batch ended: its last row's id and sort key, as PostgreSQL's text. */
export type LineKey = { id: string; key: string | null };

/**
 * How an export reads: `batch` rows a read, the database joining their lines `part` at a time,
 * and the pool its parts' memory is lent from (none: each part a Buffer of its own).
 */
export interface ExportReads {
  batch?: number;
  part?: number;
  parts?: PartPool;
}

/** One text of a batch (bytes) and the batch's size, last id and last sort key (as text). */
type Part = [body: Buffer, rows: string, lastId: string, lastKey: string | null];

/**
 * The lines of a walk in index order, a batch at a time, as bytes (UTF-8). `batchQuery(after)` is
 * the batch's ordered, limited select of three columns, `line`, `id` and `key` (the columns as
 * they are: only the batch's last row's are written as text), continuing after the last row of
 * the batch before (none for the first). The database joins a batch's lines `part` at a time, in
 * the batch's order, and sends them by a binary COPY (copyRows: Buffers outside V8's heap, not
 * strings in it). The next batch is asked for before this one is written: the database reads
 * while the server writes; at most one batch waits ahead of the reader. With `parts`, each part
 * is copied into a buffer the pool lends, which the writer gives back once the socket has
 * written it (routes/parts-body.ts).
 */
export async function* exportLines(
  db: Db,
  batchQuery: (after: LineKey | undefined) => { sql: string; params: unknown[] },
  { batch, part = 1_000, parts }: ExportReads & { batch: number },
): AsyncGenerator<Buffer> {
  const pool = (db as unknown as { $client: Pool }).$client;
  const read = async (after: LineKey | undefined) => {
    const rows = batchQuery(after);
    // A window without an order of its own numbers its input in the subquery's order.
    const query = `select string_agg(line, '' order by n), max(c)::text, (array_agg(id) filter (where n = c))[1]::text,
        (array_agg(key) filter (where n = c))[1]::text
      from (select line, id, key, row_number() over () as n, count(*) over () as c from (${rows.sql}) b) r
      group by (n - 1) / ${part} order by (n - 1) / ${part}`;
    const copy = parts && ((bytes: Buffer) => parts.copy(bytes));
    return (await copyRows(pool, { sql: query, params: rows.params }, (field) => field === 0, copy)) as Part[];
  };
  let next: Promise<Part[]> | undefined = read(undefined);
  try {
    while (next) {
      const parts: Part[] = await next;
      const last = parts.at(-1);
      next = last && Number(last[1]) === batch ? read({ id: last[2], key: last[3] }) : undefined;
      for (const p of parts) yield p[0];
    }
  } finally {
    // A reader gone midway (the download cancelled) leaves the batch asked for unread.
    next?.catch(() => undefined);
  }
}
