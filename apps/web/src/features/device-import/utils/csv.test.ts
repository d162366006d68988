import { describe, expect, it } from 'vitest';
import { CsvFormatError, detectDelimiter, parseCsv } from './csv.ts';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe('parseCsv', () => {
  it('reads plain rows', () => {
    expect(fields('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps delimiters, line breaks and doubled quotes inside quoted fields', () => {
    expect(fields('id,desc\n1,"Hall, east ""B"" wing"\n2,"two\r\nlines"\n')).toEqual([
      ['id', 'desc'],
      ['1', 'Hall, east "B" wing'],
      ['2', 'two\nlines'],
    ]);
  });

  it('takes CRLF, LF and lone CR line ends, with or without a final one', () => {
    expect(fields('a\r\n1\r\n2')).toEqual([['a'], ['1'], ['2']]);
    expect(fields('a\r1\r2\r')).toEqual([['a'], ['1'], ['2']]);
  });

  it('drops a byte-order mark', () => {
    expect(fields('\uFEFFDevice ID\n240ac40a2e48')).toEqual([['Device ID'], ['240ac40a2e48']]);
  });

  it('skips blank lines, also ones holding only delimiters, and numbers the lines', () => {
    const records = parseCsv('a,b\n\n1,2\n , \n\r\n3,"x\ny"\n4,5');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1', '2'] },
      { line: 6, fields: ['3', 'x\ny'] },
      { line: 8, fields: ['4', '5'] },
    ]);
  });

  it('keeps empty fields and an empty quoted field', () => {
    expect(fields('a,b,c\n1,,""\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '', ''],
    ]);
  });

  it('fails on an unclosed quote and on text after a closing quote', () => {
    expect(() => parseCsv('a\n"open\n2')).toThrow(new CsvFormatError('The quoted field on line 2 is never closed.', 2));
    expect(() => parseCsv('a,b\n"x"y,2')).toThrow(/closing quote on line 2/);
  });

  it('refuses binary files', () => {
    expect(() => parseCsv('PK\u0003\u0004\u0000\u0000')).toThrow(CsvFormatError);
  });
});

describe('detectDelimiter', () => {
  it('picks the most frequent delimiter of the first line, a comma by default', () => {
    expect(detectDelimiter('Device ID;Description\n1;2')).toBe(';');
    expect(detectDelimiter('Device ID\tDescription')).toBe('\t');
    expect(detectDelimiter('"a;b",c')).toBe(',');
    expect(detectDelimiter('Device ID')).toBe(',');
  });
});
