import pg from 'pg';

/**
 * A query's rows as bytes, not JavaScript strings: `COPY (<select>) TO STDOUT (FORMAT binary)`
 * read as node-postgres receives it (bench/notes/audit-and-history-cost.md, 2026-11-29 s24d).
 * node-postgres makes every field of a DataRow a string in V8's heap; an export's batch of
 * joined lines (hundreds of KB, alive until the socket has written it) then outlived two
 * scavenges and was promoted, and the old generation grew by most of the file until a full
 * collection. A CopyData message's bytes are copied into a Buffer, whose memory is outside the
 * heap and whose small handle dies young.
 */

/** A row's fields: bytes for those `bytesOf` names, text for the others, null for SQL's null. */
export type CopyRow = (Buffer | string | null)[];

/** PostgreSQL's binary COPY header: the signature, flags (int32) and the extension's length (int32). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * Parses a binary COPY's stream of tuples (each an int16 field count, then per field an int32
 * length, -1 for null, and its bytes; a count of -1 ends it) into rows. The server sends one
 * CopyData message a tuple, the header with the first one; a tuple split across messages is joined.
 */
export class BinaryCopyReader {
  readonly rows: CopyRow[] = [];
  /** A stream that was not a binary COPY (thrown by copyRows: a throw here would reach the socket). */
  failure: Error | undefined;
  private pending: Buffer | undefined;
  private headerRead = false;

  /** @param copy keeps a bytes field: a Buffer of its own, or one a PartPool lends. */
  constructor(
    private readonly isBytes: (field: number) => boolean,
    private readonly copy: (bytes: Buffer) => Buffer = (bytes) => Buffer.from(bytes),
  ) {}

  /** Takes one message's bytes; `chunk` may be a view of a buffer reused afterwards, so what is kept is copied. */
  push(chunk: Buffer): void {
    if (this.failure) return;
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    if (!this.headerRead) {
      if (buf.length < SIGNATURE.length + 8) return void (this.pending = Buffer.from(buf));
      if (!buf.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
        this.failure = new Error('copyRows: not a binary COPY');
        return;
      }
      at = SIGNATURE.length + 8 + buf.readInt32BE(SIGNATURE.length + 4);
      this.headerRead = true;
    }
    for (;;) {
      const row = this.tuple(buf, at);
      if (!row) break;
      at = row.end;
      if (row.fields) this.rows.push(row.fields);
    }
    this.pending = at < buf.length ? Buffer.from(buf.subarray(at)) : undefined;
  }

  /** The tuple at `at`, or undefined when `buf` does not hold all of it; fields undefined: the trailer. */
  private tuple(buf: Buffer, at: number): { fields?: CopyRow; end: number } | undefined {
    if (buf.length < at + 2) return undefined;
    const count = buf.readInt16BE(at);
    if (count === -1) return { end: at + 2 };
    const fields: CopyRow = [];
    let p = at + 2;
    for (let i = 0; i < count; i++) {
      if (buf.length < p + 4) return undefined;
      const length = buf.readInt32BE(p);
      p += 4;
      if (length === -1) {
        fields.push(null);
        continue;
      }
      if (buf.length < p + length) return undefined;
      const bytes = buf.subarray(p, p + length);
      fields.push(this.isBytes(i) ? this.copy(bytes) : bytes.toString('utf8'));
      p += length;
    }
    return { fields, end: p };
  }
}

/** node-postgres' query, its CopyData messages handed to a BinaryCopyReader. */
class CopyRowsQuery extends pg.Query {
  constructor(
    text: string,
    readonly reader: BinaryCopyReader,
  ) {
    super(text);
  }

  /** Called by node-postgres for every CopyData message. */
  handleCopyData(msg: { chunk: Buffer }): void {
    this.reader.push(msg.chunk);
  }
}

/**
 * A parameter as a literal of the COPY's text (COPY takes no parameters): text quoted by
 * node-postgres' escapeLiteral, as libpq's PQescapeLiteral quotes it; a number or a boolean as
 * its text, quoted too, so it takes the type its place asks for, as a parameter does.
 */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return pg.escapeLiteral(String(value));
  throw new Error(`copyRows: a parameter of type ${typeof value} cannot be written as a literal`);
}

/** `text` with each `$n` replaced by the literal of `params[n - 1]` (COPY takes no parameters). */
export const inlineParams = (text: string, params: unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));

/**
 * Runs `query` (a select whose text holds its parameters as `$1`…; no `$` followed by a digit
 * elsewhere in it) as a binary COPY and answers its rows in order: the fields `isBytes` names as
 * Buffers (`copy`'s: see BinaryCopyReader), the others as text.
 */
export async function copyRows(
  pool: pg.Pool,
  query: { sql: string; params: unknown[] },
  isBytes: (field: number) => boolean,
  copy?: (bytes: Buffer) => Buffer,
): Promise<CopyRow[]> {
  const reader = new BinaryCopyReader(isBytes, copy);
  const text = `copy (${inlineParams(query.sql, query.params)}) to stdout (format binary)`;
  await pool.query(new CopyRowsQuery(text, reader) as unknown as pg.QueryConfig);
  if (reader.failure) throw reader.failure;
  return reader.rows;
}
