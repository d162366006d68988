import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { readFleetCounts } from '../../src/metrics/fleet-counts.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The scrape's database figures (metrics/fleet-counts.ts) are the fleet health screen's reads:
// `fleet_counts` and the devices' `updated_at` index, never a scan of `devices` (issue 30: that
// scan held the embedded database's one connection in front of the commands every 5 s).
let s: TestServer;
let acme = '';
const N = 3_000;
const RECENT = 40;

beforeAll(async () => {
  ({ s, acme } = await startWithTwoEntities());
  // Heard a day ago, but the last RECENT; every 3rd online.
  await s.app.db.execute(sql`
    insert into devices (name, entity, description, mqtt_secret_hash, online, created_at, updated_at)
    select lpad(to_hex(i), 12, '0'), ${acme}, 'unit', 'x', i % 3 = 0, now() - interval '2 days',
      now() - case when i > ${N - RECENT} then interval '1 minute' else interval '1 day' end
    from generate_series(1, ${N}) as i`);
  await s.app.db.execute(sql`vacuum analyze devices`);
});
afterAll(async () => s?.close());

/** `db`, recording every statement it is given. */
function recording(db: Db, seen: SQL[]): Db {
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
      return (query: SQL) => {
        seen.push(query);
        return target.execute(query);
      };
    },
  });
}

describe("the metrics' fleet counts", () => {
  it('counts the devices as the fleet health screen does', async () => {
    const counts = await readFleetCounts(s.app.db);
    const [expected] = (
      (await s.app.db.execute(sql`
      select count(*)::int as total, count(*) filter (where online)::int as online,
        count(*) filter (where updated_at < now() - interval '20 minutes')::int as unresponsive
      from devices`)) as unknown as { rows: { total: number; online: number; unresponsive: number }[] }
    ).rows;
    expect(counts.devices).toEqual(expected);
    expect(counts.devices.unresponsive).toBeGreaterThanOrEqual(N - RECENT);
  });

  it('reads `devices` only through its updated_at index: no statement scans the table', async () => {
    const seen: SQL[] = [];
    await readFleetCounts(recording(s.app.db, seen));
    expect(seen.length).toBeGreaterThan(0);
    const dialect = (s.app.db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } })
      .dialect;
    const onDevices: { node: string; index?: string }[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (node['Relation Name'] === 'devices')
        onDevices.push({ node: String(node['Node Type']), index: node['Index Name'] as string | undefined });
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    for (const query of seen) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const inlined = params.reduceRight<string>(
        (t, p, i) => t.replaceAll(`$${i + 1}`, `'${String(p).replaceAll("'", "''")}'`),
        text,
      );
      const plan = (await s.app.db.execute(sql.raw(`explain (format json) ${inlined}`))) as unknown as {
        rows: { 'QUERY PLAN': { Plan: Record<string, unknown> }[] }[];
      };
      walk(plan.rows[0]!['QUERY PLAN'][0]!.Plan);
    }
    expect(onDevices.length).toBeGreaterThan(0);
    for (const scan of onDevices) {
      expect(scan.node, JSON.stringify(scan)).toMatch(/^Index (Only )?Scan$/);
      expect(scan.index).toMatch(/updated/);
    }
  });
});
