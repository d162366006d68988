import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The audit list's `actor` filter matches the actor's name, id or the account a token acts for,
// exactly (issue 26). Migration 0030 serves the id and the account from partial indexes, so the
// filter states the id's match as `actor_id = x and actor_id is distinct from actor_name`: the
// same entries as before, by hand-made fixtures.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';

const entry = (entity: string, kind: string, id: string | null, name: string | null, account: string | null) =>
  s.app.db.execute(sql`
    insert into audit_entries (entity, actor_kind, actor_id, actor_name, actor_account, action, target_type,
                               target_name, outcome)
    values (${entity}, ${kind}, ${id}, ${name}, ${account}, 'device.update', 'device',
            ${`${kind}_${id ?? 'none'}_${name ?? 'none'}`}, 'success')`);
const byActor = async (entity: string, actor: string) => {
  const res = await s.request('GET', `/api/v1/tenant/${entity}/audit?actor=${encodeURIComponent(actor)}`, {
    token: root,
  });
  expect(res.status, res.text).toBe(200);
  const names = (res.body.data as Array<{ target: { name: string } }>).map((e) => e.target.name).sort();
  expect(res.body.total).toBe(names.length);
  return names;
};

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities());
  await entry(acme, 'account', 'alice_f', 'alice_f', null);
  await entry(acme, 'token', 'ab12cd34', 'CI deploys', 'alice_f');
  await entry(acme, 'device', 'unit_f1', 'unit_f1', null);
  await entry(acme, 'system', null, 'system_f', null);
  await entry(globex, 'token', 'ab12cd34', 'CI deploys', 'alice_f');
});
afterAll(async () => s?.close());

describe('the audit actor filter', () => {
  it("matches an actor's name, a token's hash prefix and the account a token acts for, exactly", async () => {
    expect(await byActor(acme, 'alice_f')).toEqual(['account_alice_f_alice_f', 'token_ab12cd34_CI deploys']);
    expect(await byActor(acme, 'ab12cd34')).toEqual(['token_ab12cd34_CI deploys']);
    expect(await byActor(acme, 'CI deploys')).toEqual(['token_ab12cd34_CI deploys']);
    expect(await byActor(acme, 'unit_f1')).toEqual(['device_unit_f1_unit_f1']);
    expect(await byActor(acme, 'system_f')).toEqual(['system_none_system_f']);
    expect(await byActor(acme, 'ab12cd')).toEqual([]);
  });

  it("never finds another entity's entries", async () => {
    expect(await byActor(globex, 'alice_f')).toEqual(['token_ab12cd34_CI deploys']);
    expect(await byActor(globex, 'unit_f1')).toEqual([]);
  });
});
