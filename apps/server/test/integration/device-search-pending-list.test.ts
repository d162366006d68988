import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The search's trigram indexes keep a small GIN pending list (migration 0031,
// docs/decisions/2026-11-29-gin-pending-list-limit.md): every device update puts its entries in
// the list and every search scans all of it, and PGlite runs no autovacuum to flush it, so the
// list is flushed by the writer once it passes 256 kB (32 pages), not GIN's default 4 MB. Since
// migration 0032 the indexes are on device_search, which only a description or entity change writes.
let s: TestServer;
let root = '';
let acme = '';
const N = 3_000;
const INDEXES = ['device_search_entity_name_trgm_idx', 'device_search_entity_description_trgm_idx'];

/** Flushes an index's pending list; answers the pages it held. */
const flush = async (index: string) =>
  Number(
    rowsOf<{ n: string }>(await s.app.db.execute(sql`select gin_clean_pending_list(${index}::regclass) as n`))[0]!.n,
  );

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities());
  // Names from 0x20000 up (131072: PostgreSQL 15 reads no hex literals).
  await s.app.db.execute(sql`
    insert into devices (name, entity, description, mqtt_secret_hash)
    select lpad(to_hex(i + 131072), 12, '0'), ${acme}, 'unit ' || i, 'x' from generate_series(1, ${N}) as i`);
  for (const index of INDEXES) await flush(index);
});
afterAll(async () => s?.close());

describe('device search trigram indexes under updates', () => {
  it('hold at most 256 kB of pending entries after every device is updated, and the search finds the new text', async () => {
    // As the telemetry flush writes them: a new last-seen time (indexed, so no update is HOT and
    // every index takes a new entry for every row), and three devices given a new description.
    const atrium = [0x20007, 0x207d0, 0x20bb8].map((i) => i.toString(16).padStart(12, '0'));
    await s.app.db.execute(sql`
      update devices set updated_at = updated_at + interval '1 second', battery = 50,
        description = case when name in ${atrium} then description || ' Atrium' else description end
      where entity = ${acme}`);

    const res = await s.request('GET', `/api/v1/tenant/${acme}/device?limit=100&search=atrium`, { token: root });
    expect(res.status, res.text).toBe(200);
    const names = (res.body as { data: { name: string }[] }).data.map((d) => d.name).sort();
    expect(names).toEqual(atrium);
    // The list as the updates left it: flushed by the writer at 256 kB (a page or so past it).
    for (const index of INDEXES) expect(await flush(index), index).toBeLessThanOrEqual(33);
  });
});
