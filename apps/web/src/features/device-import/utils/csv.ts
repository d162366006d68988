/** A CSV file that cannot be read as a table; `line` is 1-based where known. */
export class CsvFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'CsvFormatError';
  }
}

/** One record and the physical line (1-based) it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * Spreadsheets in many locales export with semicolons (or tabs): the delimiter is the one that
 * occurs most often in the first line outside quotes, a comma when none does.
 */
export function detectDelimiter(text: string): string {
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  const outsideQuotes = firstLine.replace(/"[^"]*"/g, '');
  let best: string = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = outsideQuotes.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/**
 * Parses CSV text (RFC 4180): quoted fields may hold delimiters, line breaks and `""` for a
 * quote; lines end in CRLF, LF or CR; a leading byte-order mark is dropped; blank lines are
 * skipped. Throws CsvFormatError for an unclosed quote or text after a closing quote.
 */
export function parseCsv(input: string, delimiter = detectDelimiter(input)): CsvRecord[] {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  if (text.includes('\u0000')) throw new CsvFormatError('This is not a text file.');
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;

  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (fields.some((f) => f.trim() !== '')) records.push({ line: recordLine, fields });
    fields = [];
    recordLine = line;
  };
  // A line break at i (CRLF, LF or CR): its length, or 0.
  const breakAt = (at: number) => (text[at] === '\r' ? (text[at + 1] === '\n' ? 2 : 1) : text[at] === '\n' ? 1 : 0);

  while (i < text.length) {
    // A quote opens a quoted field when only spaces precede it in the field.
    if (text[i] === '"' && field.trim() === '') {
      field = '';
      const openedOn = line;
      i++;
      for (;;) {
        if (i >= text.length)
          throw new CsvFormatError(`The quoted field on line ${openedOn} is never closed.`, openedOn);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        const br = breakAt(i);
        if (br > 0) {
          field += '\n';
          line++;
          i += br;
          continue;
        }
        field += text[i];
        i++;
      }
      // After a closing quote only spaces, a delimiter or the end of the line may follow.
      while (text[i] === ' ' || (text[i] === '\t' && delimiter !== '\t')) i++;
      if (i < text.length && text[i] !== delimiter && breakAt(i) === 0) {
        throw new CsvFormatError(`Unexpected text after a closing quote on line ${line}.`, line);
      }
      continue;
    }
    const br = breakAt(i);
    if (br > 0) {
      line++;
      i += br;
      endRecord();
      continue;
    }
    if (text[i] === delimiter) {
      endField();
      i++;
      continue;
    }
    field += text[i];
    i++;
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}
