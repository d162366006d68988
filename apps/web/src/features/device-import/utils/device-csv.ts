import { CSV_MAX_ROWS } from '@fleet/shared/constants';
import { CsvFormatError, parseCsv } from './csv.ts';

/** One device of an uploaded file; `line` is where it stands in the file, for messages. */
export interface CsvDevice {
  line: number;
  name: string;
  description: string;
  version_id: string;
}

export type DeviceCsvResult =
  | { ok: true; devices: CsvDevice[] }
  /** `format`: not a table with a Device ID column; `too-many`: more rows than one upload takes. */
  | { ok: false; kind: 'format' | 'too-many'; reason: string };

// Header names are compared without case, spaces, underscores or hyphens.
const normalise = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, '');
const ID_HEADERS = ['deviceid', 'name'];
const DESCRIPTION_HEADERS = ['description'];
const VERSION_HEADERS = ['versionid'];

const columnOf = (headers: string[], names: string[]) => headers.findIndex((h) => names.includes(normalise(h)));

/**
 * Reads an uploaded device list (fleet §2): a header row with a 'Device ID' column ('device_id'
 * and 'name' also count) and optional 'Description' and 'Version ID' columns, in any order;
 * then one device per row. Values are trimmed; rows are not validated here (see bulk-rows.ts).
 */
export function parseDeviceCsv(text: string, maxRows = CSV_MAX_ROWS): DeviceCsvResult {
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvFormatError) return { ok: false, kind: 'format', reason: error.message };
    throw error;
  }
  const [header, ...rows] = records;
  if (header === undefined) return { ok: false, kind: 'format', reason: 'The file is empty.' };
  const id = columnOf(header.fields, ID_HEADERS);
  if (id < 0) return { ok: false, kind: 'format', reason: "The first row has no 'Device ID' column." };
  if (rows.length > maxRows) {
    return {
      ok: false,
      kind: 'too-many',
      reason: `The file lists ${rows.length} devices; at most ${maxRows} can be added at once. Split it into smaller files.`,
    };
  }
  const description = columnOf(header.fields, DESCRIPTION_HEADERS);
  const version = columnOf(header.fields, VERSION_HEADERS);
  const cell = (fields: string[], index: number) => (index < 0 ? '' : (fields[index] ?? '').trim());
  return {
    ok: true,
    devices: rows.map(({ line, fields }) => ({
      line,
      name: cell(fields, id),
      description: cell(fields, description),
      version_id: cell(fields, version),
    })),
  };
}

/** The downloadable template (fleet §2): the header and three sample device ids. */
export const CSV_TEMPLATE = [
  'Device ID,Description,Version ID',
  '240ac40a2e48,Reception dispenser,1.0',
  '240ac40a2e49,Ward 3 dispenser,1.0',
  '240ac40a2e4a,Spare unit,',
  '',
].join('\r\n');
