import { describe, expect, it } from 'vitest';
import type { BulkResult } from './bulk-add.ts';
import { credentialsCsv, credentialsFileName, issuedDevices } from './credentials-csv.ts';

const row = (line: number, name: string) => ({ line, name, description: '', version_id: '' });

describe('credentials CSV', () => {
  it('lists every added device with its username and password, and only those', () => {
    const results: BulkResult[] = [
      {
        row: row(2, 'aaaa00000001'),
        status: 'created',
        credentials: { username: 'aaaa00000001', password: 's3cr,et"' },
      },
      { row: row(3, 'aaaa00000002'), status: 'failed', message: 'taken' },
      { row: row(4, 'aaaa00000003'), status: 'created', credentials: { username: 'aaaa00000003', password: '-Xy_z' } },
      { row: row(5, 'aaaa00000004'), status: 'stopped' },
    ];
    const devices = issuedDevices(results);
    expect(devices.map((d) => d.name)).toEqual(['aaaa00000001', 'aaaa00000003']);
    expect(credentialsCsv(devices)).toBe(
      'Device ID,MQTT username,MQTT password\r\n' +
        'aaaa00000001,aaaa00000001,"s3cr,et"""\r\n' +
        'aaaa00000003,aaaa00000003,-Xy_z\r\n',
    );
  });

  it('names the file by the moment of the upload', () => {
    expect(credentialsFileName(new Date('2026-11-25T09:08:07.123Z'))).toBe(
      'device-credentials-2026-11-25-09-08-07.csv',
    );
  });
});
