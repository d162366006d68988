// Putting everything a filter matches into a group (issue 27): the dry run says how many move in,
// how many are already in it and how many the group has no room for; exactly those move, within
// the group's entity and capacity, one audit entry; another entity's devices are never touched.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { groups } from '../../src/db/schema.ts';
import { entriesOf } from '../helpers/audit.ts';
import {
  s,
  root,
  acme,
  globex,
  gus,
  addDevices,
  count,
  done,
  useSelectionWorld,
  ann,
  sel,
} from '../helpers/selection-world.ts';

async function addGroup(entity: string, name: string, capacity: number | null = null) {
  const [row] = await s.app.db.insert(groups).values({ entity, name, capacity }).returning({ id: groups.id });
  return row!.id;
}
const plan = (entity: string | null, id: string, body: unknown, token = ann) =>
  s.request('POST', `${sel(entity)}/${id}/group/plan`, { token, body });
const put = (entity: string | null, id: string, body: unknown, token = ann) =>
  s.request('POST', `${sel(entity)}/${id}/group`, { token, body });
const inGroup = async (entity: string, group: string) =>
  rowsOf<{ name: string }>(
    await s.app.db.execute(
      sql`select name from devices where entity = ${entity} and "group" = ${group} and last_dispenser = ${group} order by name`,
    ),
  ).map((r) => r.name);

let low: string[] = [];
let already: string[] = [];
let theirs: string[] = [];
let g1 = '';
let small = '';
let theirGroup = '';

useSelectionWorld();

beforeAll(async () => {
  g1 = await addGroup(acme, 'g1');
  small = await addGroup(acme, 'small', 2);
  theirGroup = await addGroup(globex, 'g1');
  low = await addDevices(acme, 3, { battery: 10 });
  already = await addDevices(acme, 1, { battery: 10, group: 'g1', last_dispenser: 'g1' });
  await addDevices(acme, 2, { battery: 90 });
  theirs = await addDevices(globex, 3, { battery: 10 });
});

describe('put into a group everything a filter matches', () => {
  it('the dry run says how many are already in it; exactly the set moves in, one audit entry', async () => {
    const dry = await count(acme, 'battery=Low');
    const id = dry.body.data.id;
    const p = await plan(acme, id, { group_id: g1 });
    expect(p.status).toBe(200);
    expect(p.body.data).toMatchObject({ total: 4, put: 3, already: 1, other_entity: 0, full: 0, group: 'g1' });
    const [late] = await addDevices(acme, 1, { battery: 5 });

    const res = await put(acme, id, { group_id: g1 });
    expect(res.status).toBe(202);
    expect(await done(acme, id)).toMatchObject({ action: 'group', total: 4, done: 4 });
    expect(await inGroup(acme, 'g1')).toEqual([...low, ...already].sort());
    expect(await inGroup(acme, 'g1')).not.toContain(late);

    const entries = (await entriesOf(s, 'device.update')).filter((e) => e.details?.selection === id);
    expect(entries).toHaveLength(1);
    expect(entries[0].details).toMatchObject({ count: 4, put_in_group: 'g1', plan: { put: 3, already: 1 } });
    expect((await put(acme, id, { group_id: g1 })).status).toBe(409);
  });

  it('a group takes no more than its capacity: the dry run says how many do not fit', async () => {
    const dry = await count(acme, 'battery=Low');
    const p = await plan(acme, dry.body.data.id, { group_id: small });
    expect(p.body.data).toMatchObject({ total: 5, put: 2, full: 3, capacity: 2 });
    await put(acme, dry.body.data.id, { group_id: small });
    await done(acme, dry.body.data.id);
    expect(await inGroup(acme, 'small')).toHaveLength(2);
  });

  it('never counts or moves another entity’s devices, nor into another entity’s group', async () => {
    for (const q of ['battery=Low', `entity=${globex}`, `search=${theirs[0]!.slice(0, 6)}`, 'group=g1']) {
      const { body } = await count(acme, q);
      const p = await plan(acme, body.data.id, { group_id: g1 });
      expect(p.body.data.other_entity, q).toBe(0);
      expect(p.body.data.total, q).toBe(body.data.total);
    }
    const { body } = await count(acme, 'battery=Low');
    expect((await plan(acme, body.data.id, { group_id: theirGroup })).status).toBe(404);
    expect((await put(acme, body.data.id, { group_id: theirGroup })).status).toBe(404);
    expect((await put(globex, body.data.id, { group_id: theirGroup }, gus)).status).toBe(404);
    // The landlord's set spans entities; a group takes only its own entity's devices.
    const ours = await inGroup(acme, 'g1');
    const all = await count(null, 'battery=Low', root);
    const lp = await plan(null, all.body.data.id, { group_id: theirGroup }, root);
    expect(lp.body.data).toMatchObject({ put: theirs.length, other_entity: all.body.data.total - theirs.length });
    await put(null, all.body.data.id, { group_id: theirGroup }, root);
    await done(null, all.body.data.id, root);
    expect(await inGroup(globex, 'g1')).toEqual([...theirs].sort());
    expect(await inGroup(acme, 'g1')).toEqual(ours);
  });

  it('refuses bad input with 400s', async () => {
    const { body } = await count(acme, 'battery=High');
    expect((await plan(acme, body.data.id, {})).status).toBe(400);
    expect((await plan(acme, body.data.id, { group_id: 'g1' })).status).toBe(400);
    expect((await put(acme, 'not-a-uuid', { group_id: g1 })).status).toBe(400);
  });
});
