// Saved views of the device list (issue 27): private vs shared, another entity's never seen or
// used, validated by the list's own query rule, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithTwoEntities } from '../helpers/devices.ts';
import { entriesOf } from '../helpers/audit.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const tokens: Record<string, string> = {};
const views = (entity: string | null) => (entity ? `/api/v1/tenant/${entity}/device-view` : '/api/v1/device-view');

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities());
  for (const [who, entity] of [
    ['ann', acme],
    ['bob', acme],
    ['gus', globex],
  ] as const) {
    tokens[who] = (await createAccount(s, root, { name: `${who}_${acme}`, entity, subtype: 'admin' })).access_token;
  }
});
afterAll(() => s?.close());

const save = (who: string, entity: string | null, body: object) =>
  s.request('POST', views(entity), { token: tokens[who] ?? root, body });
const list = async (who: string, entity: string | null) =>
  (await s.request('GET', views(entity), { token: tokens[who] ?? root })).body.data.map((v: any) => v.name);

describe('saved views', () => {
  it('a private view is its owner’s only; a shared one every account of the entity sees, none of another', async () => {
    const mine = await save('ann', acme, { name: 'Low battery', query: 'battery=Low&sort=updated_at&order=asc' });
    expect(mine.status).toBe(201);
    expect(mine.body.data).toMatchObject({ name: 'Low battery', shared: false, mine: true });
    const shared = await save('ann', acme, { name: 'Offline', query: 'seen=unresponsive&seen=never', shared: true });
    expect(shared.status).toBe(201);

    expect(await list('ann', acme)).toEqual(['Low battery', 'Offline']);
    expect(await list('bob', acme)).toEqual(['Offline']);
    expect(await list('gus', globex)).toEqual([]);
    // The landlord inside acme sees the shared one; its own list's views are another scope.
    expect(await list('root', acme)).toEqual(['Offline']);
    expect(await list('root', null)).toEqual([]);

    // Another entity's account cannot reach acme's views by path or by id.
    expect((await s.request('GET', views(acme), { token: tokens.gus })).status).toBe(404);
    const id = shared.body.data.id;
    for (const [method, body] of [
      ['PUT', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await s.request(method, `${views(globex)}/${id}`, { token: tokens.gus, body })).status).toBe(404);
    }
    // Bob sees the shared view but it is not his to change; Ann's private one he does not find.
    expect((await s.request('PUT', `${views(acme)}/${id}`, { token: tokens.bob, body: { name: 'x' } })).status).toBe(
      403,
    );
    const privateId = mine.body.data.id;
    expect((await s.request('DELETE', `${views(acme)}/${privateId}`, { token: tokens.bob })).status).toBe(404);
  });

  it('the owner renames, unshares and deletes, each audited', async () => {
    const { body } = await save('bob', acme, { name: 'Mine', query: 'type=CC1', shared: true });
    const path = `${views(acme)}/${body.data.id}`;
    const put = await s.request('PUT', path, { token: tokens.bob, body: { name: 'Renamed', shared: false } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Renamed', shared: false, query: 'type=CC1' });
    expect(await list('ann', acme)).not.toContain('Renamed');
    expect((await s.request('DELETE', path, { token: tokens.bob })).status).toBe(200);
    expect(await list('bob', acme)).not.toContain('Renamed');
    const mineOnly = (e: any) => e.entity === acme && e.actor_name === `bob_${acme}`;
    expect((await entriesOf(s, 'view.create')).filter(mineOnly)).toHaveLength(1);
    const [update] = (await entriesOf(s, 'view.update')).filter(mineOnly);
    expect(update.changes).toEqual({
      before: { name: 'Mine', shared: true },
      after: { name: 'Renamed', shared: false },
    });
    expect((await entriesOf(s, 'view.delete')).filter(mineOnly)).toHaveLength(1);
  });

  it('validates the name and the query by the list’s own rule (400, never 500)', async () => {
    const bad = [
      { name: '', query: 'battery=Low' },
      { name: 'x'.repeat(65), query: 'battery=Low' },
      { name: 'ok', query: 'battery=Empty' },
      { name: 'ok', query: 'sort=nonsense' },
      { name: 'ok', query: 'seen_after=yesterday' },
      { name: 'ok', query: 'colour=red' },
      { name: 'ok', query: `search=${'x'.repeat(2_001)}` },
      { name: 'ok' },
    ];
    for (const body of bad) {
      const res = await save('ann', acme, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorInfo).toBeDefined();
    }
    // The page and the view itself are not part of a view; keys come out in a stable order.
    const ok = await save('ann', acme, { name: 'Paged', query: 'type=CC2&offset=40&limit=20&battery=Low&view=x' });
    expect(ok.body.data.query).toBe('battery=Low&type=CC2');
  });

  it('the landlord’s own list has its views, shared among superadmins only', async () => {
    const res = await save('root', null, { name: 'Everywhere low', query: 'battery=Low', shared: true });
    expect(res.status).toBe(201);
    expect(await list('root', null)).toContain('Everywhere low');
    expect(await list('ann', acme)).not.toContain('Everywhere low');
    expect((await s.request('GET', views(null), { token: tokens.ann })).status).toBe(403);
  });
});
