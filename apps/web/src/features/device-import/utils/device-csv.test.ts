import { describe, expect, it } from 'vitest';
import { CSV_TEMPLATE, parseDeviceCsv } from './device-csv.ts';

describe('parseDeviceCsv', () => {
  it('finds the columns by header, in any order and case', () => {
    const result = parseDeviceCsv('version id,DEVICE ID,Description\r\nv2, 240ac40a2e48 ,"Lobby, left"\r\n');
    expect(result).toEqual({
      ok: true,
      devices: [{ line: 2, name: '240ac40a2e48', description: 'Lobby, left', version_id: 'v2' }],
    });
  });

  it("accepts 'device_id' and 'name' for the id column; the other columns are optional", () => {
    expect(parseDeviceCsv('device_id\n240ac40a2e48')).toMatchObject({ ok: true, devices: [{ name: '240ac40a2e48' }] });
    expect(parseDeviceCsv('Name;Other\n240ac40a2e48;x')).toMatchObject({
      ok: true,
      devices: [{ name: '240ac40a2e48', description: '', version_id: '' }],
    });
  });

  it('reads a file saved with a BOM and semicolons by a spreadsheet', () => {
    const result = parseDeviceCsv('\uFEFFDevice ID;Description\r\n240ac40a2e48;"A; B"\r\n');
    expect(result).toMatchObject({ ok: true, devices: [{ name: '240ac40a2e48', description: 'A; B' }] });
  });

  it('fails as a format error without a Device ID column, when empty, or on a broken quote', () => {
    expect(parseDeviceCsv('id,description\n1,2')).toEqual({
      ok: false,
      kind: 'format',
      reason: "The first row has no 'Device ID' column.",
    });
    expect(parseDeviceCsv('')).toMatchObject({ ok: false, kind: 'format' });
    expect(parseDeviceCsv('Device ID\n"240ac40a2e48')).toMatchObject({ ok: false, kind: 'format' });
  });

  it('refuses more rows than one upload takes', () => {
    const text = ['Device ID', '1', '2', '3'].join('\n');
    expect(parseDeviceCsv(text, 3).ok).toBe(true);
    expect(parseDeviceCsv(`${text}\n4`, 3)).toEqual({
      ok: false,
      kind: 'too-many',
      reason: 'The file lists 4 devices; at most 3 can be added at once. Split it into smaller files.',
    });
  });

  it('reads its own template: three sample devices', () => {
    const result = parseDeviceCsv(CSV_TEMPLATE);
    expect(result.ok && result.devices.map((d) => d.name)).toEqual(['240ac40a2e48', '240ac40a2e49', '240ac40a2e4a']);
  });
});
