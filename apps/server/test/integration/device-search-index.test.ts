import { sql } from 'drizzle-orm';
import { DeviceFilterQuerySchema } from '@fleet/shared/schemas/device';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceFilter } from '../../src/domain/device/device-filter.ts';
import { devices } from '../../src/db/schema.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The list's free text on the entity's own trigram indexes (migration 0029, btree_gin; on
// device_search since 0032): it finds what it found, inside one entity and across them, and the
// entity is a key of the index the search reads, not a filter on the rows it returns.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const N = 2_000;
const hex = (i: number) => i.toString(16).padStart(12, '0');
// Every 97th device of each entity says "Lobby" in its description: 20 of 2,000.
const LOBBY = Array.from({ length: N }, (_, k) => k + 1).filter((i) => i % 97 === 0);

const fill = (entity: string, offset: number) =>
  s.app.db.execute(sql`
    insert into devices (name, entity, description, mqtt_secret_hash)
    select lpad(to_hex(i + ${offset}), 12, '0'), ${entity},
      'unit ' || i || case when i % 97 = 0 then ' Lobby' else '' end, 'x'
    from generate_series(1, ${N}) as i`);
const search = async (path: string, text: string, more = '') => {
  const res = await s.request('GET', `${path}?limit=100&search=${encodeURIComponent(text)}${more}`, { token: root });
  expect(res.status, res.text).toBe(200);
  const body = res.body as { data: { name: string }[]; total: number };
  return { names: body.data.map((d) => d.name).sort(), total: body.total };
};

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities());
  await fill(acme, 0);
  await fill(globex, 0x10000);
  await s.app.db.execute(sql`analyze devices`);
});
afterAll(async () => s?.close());

describe('device search on the entity trigram indexes', () => {
  it("finds an entity's matches in ids and descriptions, whatever the case, and no other entity's", async () => {
    const tenant = `/api/v1/tenant/${acme}/device`;
    expect(await search(tenant, 'LoBBy')).toEqual({ names: LOBBY.map(hex), total: LOBBY.length });
    expect(await search(tenant, '00000007d0')).toEqual({ names: [hex(2000)], total: 1 });
    expect((await search(tenant, '0000000107d0')).total).toBe(0);
    expect((await search(`/api/v1/tenant/${globex}/device`, '0000000107d0')).names).toEqual([hex(0x10000 + 2000)]);
    expect((await search(tenant, 'lobby%')).total).toBe(0);
  });

  it("finds every entity's matches for the superadmin, and one entity's with its filter", async () => {
    const all = await search('/api/v1/device', 'lobby');
    expect(all.total).toBe(2 * LOBBY.length);
    expect(all.names).toEqual([...LOBBY.map(hex), ...LOBBY.map((i) => hex(i + 0x10000))].sort());
    expect(await search('/api/v1/device', 'lobby', `&entity=${globex}`)).toEqual({
      names: LOBBY.map((i) => hex(i + 0x10000)),
      total: LOBBY.length,
    });
  });

  it("reads the matches by the entity's trigram indexes, the entity an index condition", async () => {
    const q = DeviceFilterQuerySchema.parse({ search: 'lobby' });
    const { sql: text, params } = s.app.db
      .select({ n: sql`count(*)` })
      .from(devices)
      .where(deviceFilter(acme, q))
      .toSQL();
    // At 2,000 devices an entity's btree range and a filter cost as little as the search's index,
    // so the plan is taken with those indexes dropped (and put back: the transaction rolls back).
    let plan = '';
    await s.app.db
      .transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`
          do $$ declare r record; begin
            for r in select c.relname from pg_index i join pg_class c on c.oid = i.indexrelid
                join pg_am a on a.oid = c.relam
              where i.indrelid = 'devices'::regclass and not i.indisunique and a.amname = 'btree' loop
              execute format('drop index %I', r.relname);
            end loop;
          end $$`);
        const inlined = params.reduce<string>((t, p, i) => t.replace(`$${i + 1}`, `'${String(p)}'`), text);
        const answer = (await tx.execute(sql.raw(`explain (format json) ${inlined}`))) as { rows: unknown[] };
        plan = JSON.stringify(answer.rows);
        tx.rollback();
      })
      .catch((e: Error) => expect(e.message).toMatch(/rollback/i));
    // Which of the two keys the planner reads at this size is its choice; the entity is always one.
    // The matches' device rows are then read by id (devices_pkey); the search is on device_search.
    const scans = [...plan.matchAll(/"Index Name":"([^"]*)"[^}]*?"Index Cond":"([^"]*)"/g)].filter(
      ([, index]) => index !== 'devices_pkey',
    );
    expect(scans.length).toBeGreaterThanOrEqual(1);
    for (const [, index, cond] of scans) {
      expect(index).toMatch(/^device_search_entity_(name|description)_trgm_idx$/);
      expect(cond).toMatch(/entity = /);
    }
  });
});
