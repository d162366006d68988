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
  ({ s, root, acme, globex } = await startWithTwoEntities({}, { shared: true }));
  await entry(acme, 'account', 'alice_f', 'alice_f', null);
  await entry(acme, 'token', 'ab12cd34', 'CI deploys', 'alice_f');
  await entry(acme, 'device', 'unit_f1', 'unit_f1', null);
  await entry(acme, 'system', null, 'system_f', null);
  await entry(globex, 'token', 'ab12cd34', 'CI deploys', 'alice_f');
  // `pager_f` by each of the three matches, p3 by two of them; p5 newest.
  await s.app.db.execute(sql`
    insert into audit_entries (at, entity, actor_kind, actor_id, actor_name, actor_account, action, target_type,
                               target_name, outcome)
    select now() - make_interval(secs => 10 - p), ${acme}, kind, id, name, account, 'device.update', 'device',
           'p' || p, 'success'
    from (values (1, 'account', 'pager_f', 'pager_f', null), (2, 'token', 'tk1', 'Deploy', 'pager_f'),
                 (3, 'account', 'pager_f', 'pager_f', 'pager_f'), (4, 'token', 'pager_f', 'Other', null),
                 (5, 'token', 'tk2', 'Deploy 2', 'pager_f')) as v(p, kind, id, name, account)`);
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

  it("pages an actor's entries newest first across its three matches, each entry once", async () => {
    const pageOf = async (offset: number) => {
      const res = await s.request('GET', `/api/v1/tenant/${acme}/audit?actor=pager_f&limit=2&offset=${offset}`, {
        token: root,
      });
      expect(res.status, res.text).toBe(200);
      const names = (res.body.data as Array<{ target: { name: string } }>).map((e) => e.target.name);
      return { names, total: res.body.total as number };
    };
    expect(await pageOf(0)).toEqual({ names: ['p5', 'p4'], total: 5 });
    expect(await pageOf(2)).toEqual({ names: ['p3', 'p2'], total: 5 });
    expect(await pageOf(4)).toEqual({ names: ['p1'], total: 5 });
  });
});
