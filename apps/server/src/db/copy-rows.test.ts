import { describe, expect, it } from 'vitest';
import { BinaryCopyReader, inlineParams } from './copy-rows.ts';

/** A binary COPY's bytes as PostgreSQL writes them: header (no extension), tuples, trailer. */
function copyStream(rows: (string | null)[][]): Buffer {
  const parts = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(field === null ? -1 : Buffer.byteLength(field));
      parts.push(length);
      if (field !== null) parts.push(Buffer.from(field));
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

const ROWS = [
  ['a,"b"\r\nç€\r\n', '2', '17', '2026-11-29 10:00:00.123456+00'],
  ['', '1', '18', null],
];

const read = (messages: Buffer[]) => {
  const reader = new BinaryCopyReader((field) => field === 0);
  for (const m of messages) {
    // node-postgres hands a view of its read buffer, which it reuses: scribble on it after each push.
    const view = Buffer.from(m);
    reader.push(view);
    view.fill(0x58);
  }
  return reader;
};

describe('BinaryCopyReader', () => {
  it('reads every tuple, the first field as bytes and the rest as text or null, however the stream is split', () => {
    const stream = copyStream(ROWS);
    for (let cut = 0; cut <= stream.length; cut++) {
      const reader = read([stream.subarray(0, cut), stream.subarray(cut)]);
      expect(reader.failure).toBeUndefined();
      expect(reader.rows.map((r) => r.map((f) => (Buffer.isBuffer(f) ? `bytes:${f.toString()}` : f)))).toEqual(
        ROWS.map(([first, ...rest]) => [`bytes:${first}`, ...rest]),
      );
    }
  });

  it('reads one message a tuple, as the server sends them, and a stream with no tuple', () => {
    const stream = copyStream(ROWS);
    const firstEnd = 19 + 2 + 4 + Buffer.byteLength(ROWS[0]![0]!) + 4 + 1 + 4 + 2 + 4 + 29;
    expect(read([stream.subarray(0, firstEnd), stream.subarray(firstEnd)]).rows).toHaveLength(2);
    expect(read([copyStream([])]).rows).toEqual([]);
  });

  it('refuses a stream that is not a binary COPY', () => {
    expect(read([Buffer.from('1\t2\n\\.\n'.padEnd(40, ' '))]).failure?.message).toMatch(/not a binary COPY/);
  });
});

describe('inlineParams', () => {
  it('writes each parameter as a quoted literal, $10 apart from $1', () => {
    const params = ["o'brien", 'back\\slash', 5000, true, null, 'six', 7, 8, 9, 'ten'];
    expect(inlineParams('a = $1 and b = $2 and c < $3 and d = $4 and e is $5 limit $10', params)).toBe(
      "a = 'o''brien' and b =  E'back\\\\slash' and c < '5000' and d = 'true' and e is null limit 'ten'",
    );
  });

  it('refuses a parameter it cannot write as a literal', () => {
    expect(() => inlineParams('a = $1', [{ x: 1 }])).toThrow(/cannot be written as a literal/);
  });
});
