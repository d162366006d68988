import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { registerDevice, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The search's text lives in device_search, kept by triggers on devices (migration 0032, issue 32):
// the list finds what a device is called and says now, through registration, description edits,
// renames, moves between entities and deletion, and a telemetry flush never writes the table.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const [A, B, C] = ['5ea000000001', '5ea000000002', '5ea000000003'];

const found = async (entity: string, text: string) => {
  const res = await s.request('GET', `/api/v1/tenant/${entity}/device?limit=100&search=${encodeURIComponent(text)}`, {
    token: root,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { name: string }[] }).data.map((d) => d.name).sort();
};
const edit = async (name: string, set: Record<string, string>) => {
  const res = await s.request('PUT', `/api/v1/tenant/${acme}/device/${name}`, {
    token: root,
    body: { operator: { $set: set } },
  });
  expect(res.status, res.text).toBe(200);
};
/** The row versions of device_search: a write of any row changes its xmin. */
const versions = async () =>
  rowsOf<{ name: string; xmin: string }>(
    await s.app.db.execute(
      sql`select name, xmin::text from device_search where name in (${A}, ${B}, ${C}) order by name`,
    ),
  );

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities({}, { shared: true }));
  for (const name of [A, B, C]) await registerDevice(s, root, acme, name);
});
afterAll(async () => s?.close());

describe('device search text kept beside the devices', () => {
  it('finds a registered device, then its new description and not its old one', async () => {
    expect(await found(acme, 'test unit')).toEqual([A, B, C]);
    await edit(A, { description: 'Atrium kiosk' });
    expect(await found(acme, 'atrium')).toEqual([A]);
    expect(await found(acme, 'test unit')).toEqual([B, C]);
  });

  it('follows a rename and a move to another entity, and forgets a deleted device', async () => {
    const renamed = '5ea0000000aa';
    await edit(B, { name: renamed, description: 'Renamed unit' });
    expect(await found(acme, 'renamed')).toEqual([renamed]);
    expect(await found(acme, '5ea0000000aa')).toEqual([renamed]);
    await s.app.db.execute(sql`update devices set entity = ${globex} where name = ${renamed}`);
    expect(await found(acme, 'renamed')).toEqual([]);
    expect(await found(globex, 'renamed')).toEqual([renamed]);
    const res = await s.request('DELETE', `/api/v1/tenant/${globex}/device/${renamed}`, { token: root });
    expect(res.status, res.text).toBe(200);
    expect(await found(globex, 'renamed')).toEqual([]);
    const left = rowsOf(await s.app.db.execute(sql`select 1 from device_search where name = ${renamed}`));
    expect(left).toEqual([]);
  });

  it('is not written by telemetry, and devices carries no trigram index for it to update', async () => {
    const before = await versions();
    const { telemetry } = s.app.devices;
    telemetry.report(A, { state: 'ALLOCATED', battery: 40 });
    telemetry.report(C, { state: 'ERROR', battery: 12, is_charging: true });
    await telemetry.flush();
    const seen = rowsOf<{ name: string; battery: number }>(
      await s.app.db.execute(sql`select name, battery from devices where name in (${A}, ${C}) order by name`),
    );
    expect(seen).toEqual([
      { name: A, battery: 40 },
      { name: C, battery: 12 },
    ]);
    expect(await versions()).toEqual(before);
    const gin = rowsOf(
      await s.app.db.execute(
        sql`select indexname from pg_indexes where tablename = 'devices' and indexdef ilike '%gin%'`,
      ),
    );
    expect(gin).toEqual([]);
  });
});
