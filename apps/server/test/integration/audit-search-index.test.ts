import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { auditEntries } from '../../src/db/schema.ts';
import { auditWhere, countWhere } from '../../src/domain/audit/list-audit.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import { scansWithoutBtrees } from '../helpers/plan-without-btrees.ts';
import type { TestServer } from '../helpers/server.ts';

// The audit list's free text on the entity's own trigram index (migration 0033, btree_gin;
// docs/decisions/2026-11-29-audit-search-by-entity.md): it finds what it found, inside one entity
// and across them, the entity is a key of the index the search reads (not a filter on the rows
// it returns), and the index's pending list is flushed by the writer at 256 kB, not GIN's 4 MB. A
// full page's count gives the index only the search's words that are not in most entries
// (docs/decisions/2026-11-29-audit-search-count-by-rare-words.md) and counts the same entries.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const N = 1_500;
const INDEX = 'audit_entries_entity_search_trgm_idx';
// Every 97th entry of each entity names the target "Lobby unit <i>": 15 of 1,500.
const LOBBY = Array.from({ length: N }, (_, k) => k + 1).filter((i) => i % 97 === 0);

const fill = (entity: string) =>
  s.app.db.execute(sql`
    insert into audit_entries (at, entity, actor_kind, actor_name, action, target_type, target_name, outcome)
    select now() - make_interval(secs => ${N} - i), ${entity}, 'account', 'user_' || (i % 20), 'device.update',
      'device', case when i % 97 = 0 then 'Lobby unit ' || i else 'unit ' || i end, 'success'
    from generate_series(1, ${N}) as i`);
const search = async (path: string, text: string, more = '') => {
  const res = await s.request('GET', `${path}?limit=100&search=${encodeURIComponent(text)}${more}`, { token: root });
  expect(res.status, res.text).toBe(200);
  const body = res.body as { data: { entity: string; target: { name: string } }[]; total: number };
  return { names: body.data.map((e) => `${e.entity}:${e.target.name}`).sort(), total: body.total };
};
const lobby = (entity: string) => LOBBY.map((i) => `${entity}:Lobby unit ${i}`);
/** Flushes the index's pending list; answers the pages it held. */
const flush = async () =>
  Number(
    rowsOf<{ n: string }>(await s.app.db.execute(sql`select gin_clean_pending_list(${INDEX}::regclass) as n`))[0]!.n,
  );

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities());
  await fill(acme);
  await fill(globex);
  await s.app.db.execute(sql`analyze audit_entries`);
});
afterAll(async () => s?.close());

describe('audit free text on the entity trigram index', () => {
  it("finds an entity's matches whatever the case, no other entity's, and every entity's for the superadmin", async () => {
    expect(await search(`/api/v1/tenant/${acme}/audit`, 'LoBBy')).toEqual({
      names: lobby(acme).sort(),
      total: LOBBY.length,
    });
    expect((await search(`/api/v1/tenant/${acme}/audit`, 'lobby unit 1455')).total).toBe(1);
    const all = await search('/api/v1/audit', 'lobby');
    expect(all).toEqual({ names: [...lobby(acme), ...lobby(globex)].sort(), total: 2 * LOBBY.length });
    expect(await search('/api/v1/audit', 'lobby', `&entity=${globex}`)).toEqual({
      names: lobby(globex).sort(),
      total: LOBBY.length,
    });
  });

  it("reads an entity's matches by the entity trigram index, the entity an index condition", async () => {
    const query = s.app.db
      .select({ n: sql`count(*)` })
      .from(auditEntries)
      .where(auditWhere(acme, { search: 'lobby' }))
      .toSQL();
    const scans = await scansWithoutBtrees(s.app.db, 'audit_entries', query);
    expect(scans).toHaveLength(1);
    expect(scans[0]!.index).toBe(INDEX);
    expect(scans[0]!.cond).toMatch(/entity = /);
  });

  it('holds at most 256 kB of pending entries after 3,000 more entries, and the search finds them', async () => {
    await flush();
    await s.app.db.execute(sql`
      insert into audit_entries (entity, actor_kind, actor_name, action, target_type, target_name, outcome)
      select ${acme}, 'account', 'user_' || i, 'device.create', 'device', 'atrium unit ' || i, 'success'
      from generate_series(1, 3000) as i`);
    expect((await search(`/api/v1/tenant/${acme}/audit`, 'atrium unit 2999')).total).toBe(1);
    // As the inserts left it: flushed by the writer at 256 kB (a page or so past it).
    expect(await flush()).toBeLessThanOrEqual(33);
  });

  it("counts a full page's matches from the search's rare words and the whole search on the rows", async () => {
    // "unit" is in the newest entries; 10 older entries name "lobby" without "lobby unit".
    await s.app.db.execute(sql`
      insert into audit_entries (at, entity, actor_kind, actor_name, action, target_type, target_name, outcome)
      select now() - interval '1 day', ${acme}, 'account', 'user_1', 'device.update', 'device', 'Lobby annex ' || i, 'success'
      from generate_series(1, 10) as i`);
    const page = await s.request('GET', `/api/v1/tenant/${acme}/audit?limit=1&search=lobby%20unit`, { token: root });
    expect(page.body).toMatchObject({ total: LOBBY.length, total_is_lower_bound: false });
    const where = await countWhere(s.app.db, acme, { limit: 1, offset: 0, search: 'lobby unit' });
    const query = s.app.db
      .select({ n: sql`count(*)` })
      .from(auditEntries)
      .where(where)
      .toSQL();
    const scans = await scansWithoutBtrees(s.app.db, 'audit_entries', query);
    expect(scans.map((scan) => scan.index)).toEqual([INDEX]);
    expect(scans[0]!.cond).toMatch(/lobby /);
    expect(scans[0]!.cond).not.toMatch(/unit/);
  });
});
