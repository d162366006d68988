import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../src/domain/audit/list-audit.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The audit list's total is counted from the page's first row up to limit + 1,000 past it
// (docs/decisions/2026-11-29-audit-total-from-the-page.md): exact up to offset + limit + 1,000, a
// lower bound flagged `total_is_lower_bound` above. Fixtures by actor `capper`, hand-counted:
// 10,002 successes and 3 failures in acme, 2 in globex; by actor `twin`, 5 in acme at one instant.
const SUCCESSES = 10_002;
const FAILURES = 3;

let s: TestServer;
let root = '';
let acme = '';
let globex = '';

const fixtures = (entity: string, n: number, outcome: 'success' | 'failure') =>
  s.app.db.execute(sql`
    insert into audit_entries (at, entity, actor_kind, actor_name, action, target_type, target_name, outcome)
    select now() - make_interval(secs => i), ${entity}, 'account', 'capper', 'device.update', 'device',
           'unit_' || i, ${outcome}
    from generate_series(1, ${n}) as i`);

const page = async (path: string, query: string) => {
  const res = await s.request('GET', `/api/v1/${path}?actor=capper&${query}`, { token: root });
  expect(res.status, res.text).toBe(200);
  const body = res.body as { data: unknown[]; total: number; total_is_lower_bound: boolean };
  return { rows: body.data.length, total: body.total, bound: body.total_is_lower_bound };
};

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities());
  await fixtures(acme, SUCCESSES, 'success');
  await fixtures(acme, FAILURES, 'failure');
  await fixtures(globex, 2, 'failure');
  // One statement's now(): five entries at the same microsecond, ordered by id alone.
  await s.app.db.execute(sql`
    insert into audit_entries (at, entity, actor_kind, actor_name, action, target_type, target_name, outcome)
    select now(), ${acme}, 'account', 'twin', 'device.update', 'device', 'unit_' || i, 'success'
    from generate_series(1, 5) as i`);
});
afterAll(async () => s?.close());

describe('the audit total', () => {
  it('is exact while the filter matches no more than offset + limit + 1,000 entries', async () => {
    expect(await page(`tenant/${acme}/audit`, 'outcome=failure')).toEqual({ rows: 3, total: 3, bound: false });
    expect(await page(`tenant/${globex}/audit`, 'limit=1')).toEqual({ rows: 1, total: 2, bound: false });
    // A short page is the end: offset + its rows.
    expect(await page(`tenant/${acme}/audit`, 'limit=50&offset=9990')).toEqual({
      rows: 15,
      total: SUCCESSES + FAILURES,
      bound: false,
    });
    // Past the end: what there is.
    expect(await page(`tenant/${acme}/audit`, 'outcome=failure&offset=10')).toEqual({
      rows: 0,
      total: 3,
      bound: false,
    });
    // A full page deep in the scope counts from its own first row: 9,000 + the 1,005 left.
    expect(await page(`tenant/${acme}/audit`, 'limit=50&offset=9000')).toEqual({
      rows: 50,
      total: SUCCESSES + FAILURES,
      bound: false,
    });
  });

  it('is the bound offset + limit + 1,000, flagged as a lower bound, when more match; pages past it still answer', async () => {
    expect(await page(`tenant/${acme}/audit`, 'limit=50')).toEqual({ rows: 50, total: 1_050, bound: true });
    expect(await page(`tenant/${acme}/audit`, 'limit=50&offset=1')).toEqual({ rows: 50, total: 1_051, bound: true });
    expect(await page(`tenant/${acme}/audit`, 'limit=50&offset=5000')).toEqual({ rows: 50, total: 6_050, bound: true });
    expect(await page('audit', `entity=${acme}&outcome=success&limit=10`)).toEqual({
      rows: 10,
      total: 1_010,
      bound: true,
    });
  });

  it('counts from the page by its exact time and id: entries of one instant are neither lost nor counted twice', async () => {
    const twin = async (query: string) => {
      const res = await s.request('GET', `/api/v1/tenant/${acme}/audit?actor=twin&${query}`, { token: root });
      const body = res.body as { data: unknown[]; total: number; total_is_lower_bound: boolean };
      return { rows: body.data.length, total: body.total, bound: body.total_is_lower_bound };
    };
    expect(await twin('limit=2&offset=2')).toEqual({ rows: 2, total: 5, bound: false });
    expect(await twin('limit=1&offset=3')).toEqual({ rows: 1, total: 5, bound: false });
  });

  it('counts exactly up to the cap and flags only a count beyond it', async () => {
    const q = { actor: 'capper', outcome: 'failure' as const, limit: 1, offset: 0 };
    expect(await listAudit(s.app.db, acme, q, 2)).toMatchObject({ total: 3, total_is_lower_bound: false });
    expect(await listAudit(s.app.db, acme, q, 1)).toMatchObject({ total: 2, total_is_lower_bound: true });
    expect(await listAudit(s.app.db, acme, { ...q, offset: 1 }, 1)).toMatchObject({
      total: 3,
      total_is_lower_bound: false,
    });
    // The superadmin's every-entity scope counts both entities' failures.
    expect(await listAudit(s.app.db, null, q, 10)).toMatchObject({ total: 5, total_is_lower_bound: false });
  });
});
