import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The audit list's free text (issue 26, migration 0015): one case-blind substring match over
// actor, target, reason and action, as the four ILIKEs it replaced, never across two fields.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';

const entry = (entity: string, actor: string, action: string, target: string, reason: string | null) =>
  s.app.db.execute(sql`
    insert into audit_entries (entity, actor_kind, actor_name, action, target_type, target_name, outcome, reason)
    values (${entity}, 'account', ${actor}, ${action}, 'device', ${target}, ${reason ? 'failure' : 'success'}, ${reason})`);
const search = async (entity: string, text: string) => {
  const res = await s.request('GET', `/api/v1/tenant/${entity}/audit?search=${encodeURIComponent(text)}`, {
    token: root,
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Array<{ target: { name: string } }>).map((e) => e.target.name).sort();
};

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities({}, { shared: true }));
  await entry(acme, 'Alice_Admin', 'device.update', 'Lobby-Unit', null);
  await entry(acme, 'bob', 'device.delete', 'unit%2', 'Wrong Password');
  await entry(acme, 'carol', 'group.update', 'kiosk_3', null);
  await entry(globex, 'Alice_Admin', 'device.update', 'globex-unit', 'Wrong Password');
});
afterAll(async () => s?.close());

describe('audit free text', () => {
  it('matches any of actor, target, reason and action, whatever the case', async () => {
    expect(await search(acme, 'ALICE')).toEqual(['Lobby-Unit']);
    expect(await search(acme, 'lobby-u')).toEqual(['Lobby-Unit']);
    expect(await search(acme, 'wrong pass')).toEqual(['unit%2']);
    expect(await search(acme, 'device.')).toEqual(['Lobby-Unit', 'unit%2']);
    expect(await search(acme, 'unit')).toEqual(['Lobby-Unit', 'unit%2']);
  });

  it('takes % and _ as themselves, and never matches across two fields', async () => {
    expect(await search(acme, 'unit%2')).toEqual(['unit%2']);
    expect(await search(acme, 'kiosk_3')).toEqual(['kiosk_3']);
    expect(await search(acme, 'kiosk%')).toEqual([]);
    // actor "carol" then target "kiosk_3": their joint text is in no single field.
    expect(await search(acme, 'carolkiosk')).toEqual([]);
    expect(await search(acme, 'adminlobby')).toEqual([]);
  });

  it("never finds another entity's entries", async () => {
    expect(await search(acme, 'globex')).toEqual([]);
    expect(await search(globex, 'alice')).toEqual(['globex-unit']);
  });
});
