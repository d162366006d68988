/**
 * A CSV field (RFC 4180), with a leading formula character defused for spreadsheets: the rules
 * csvSql (src/db/export-lines.ts) applies in the database, written once more
 * in JavaScript as the reference device-export-csv.test.ts and audit-read.test.ts compare the
 * database's lines with.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
