import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../helpers/csv-field.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The device export's lines are written by the database (export-devices.ts): every field as
// csvField writes it, whatever a device reported. Firmware and state come from the devices
// themselves, so they may hold a comma, a quote, a line break or a spreadsheet formula.
let s: TestServer;
let root = '';
let acme = '';
const NASTY: [name: string, fw: string | null, state: string | null, battery: number | null][] = [
  ['c00000000001', '=HYPERLINK("x")', 'ERROR', 5],
  ['c00000000002', '1,2', '"quoted"', null],
  ['c00000000003', 'line\r\nbreak', '+1', -3],
  ['c00000000004', '@sum', '-minus, and comma', 100],
  ['c00000000005', '\ttab', 'plain', 0],
  ['c00000000006', null, null, 42],
];

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities());
  for (const [name, fw, state, battery] of NASTY) {
    await s.app.db.execute(sql`
      insert into devices (name, entity, fw_version, state_current, battery, is_charging, mqtt_secret_hash,
                           created_at, updated_at)
      values (${name}, ${acme}, ${fw}, ${state}, ${battery}, ${battery === null ? null : battery > 50},
              'x', '2026-03-04T05:06:07.123456Z', '2026-11-28T23:59:58.999Z')`);
  }
});
afterAll(async () => s?.close());

describe('device export lines', () => {
  it('writes every field as csvField does, for the tenant and the superadmin', async () => {
    for (const [path, landlord] of [
      [`/api/v1/tenant/${acme}/device/export?sort=name&order=asc`, false],
      [`/api/v1/device/export?entity=${acme}&sort=name&order=asc`, true],
    ] as const) {
      const file = await s.request('GET', path, { token: root });
      expect(file.status, file.text).toBe(200);
      const lines = NASTY.map(([name, fw, state, battery]) =>
        [
          name,
          null,
          ...(landlord ? [acme] : []),
          fw,
          state,
          '04.03.2026',
          '28.11.2026 23:59:58',
          battery === null ? null : String(battery),
          battery === null ? null : battery > 50 ? 'yes' : 'no',
        ]
          .map(csvField)
          .join(','),
      );
      const header = landlord
        ? 'Device ID,Groups,Entity,Version,Status,Created Date,Last Updated,Battery,Charging'
        : 'Device ID,Groups,Version,Status,Created Date,Last Updated,Battery,Charging';
      expect(file.text).toBe([header, ...lines].map((l) => l + '\r\n').join(''));
    }
  });
});
