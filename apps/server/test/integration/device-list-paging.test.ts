// The device list's pages walked forward (Next) and backward (Previous from the last page) over
// hand-made devices full of ties and nulls, for every sort and order: each page is exactly its
// slice of the whole ordered list (nulls last, ties by id in the sort's direction), whether the
// server reads it from the front or from the far end, and another entity's devices never appear;
// the page statement's two forms (rows read past the offset, or the deferred join) at every offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_SORTS, DeviceListQuerySchema } from '@fleet/shared/schemas/device';
import { devices, groups } from '../../src/db/schema.ts';
import { deviceFilter, deviceOrdering } from '../../src/domain/device/device-filter.ts';
import { pageQuery } from '../../src/domain/device/list-devices.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

let s: TestServer;
let root = '';
const T0 = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;

type Row = typeof devices.$inferInsert;
// [id suffix, group, fw, state, battery, created hours, seen hours]: ties in every column, some nulls.
const SHAPES: [string, string | null, string | null, string | null, number | null, number, number][] = [
  ['07', 'g1', '1.0', 'ERROR', 50, 3, 1],
  ['02', 'g2', '2.0', 'WAITING', 50, 3, 1],
  ['11', null, null, null, null, 5, 2],
  ['04', 'g1', '1.0', 'ERROR', 10, 1, 1],
  ['13', 'g2', '2.0', 'ERROR', 90, 3, 4],
  ['01', null, '1.0', 'WAITING', null, 1, 2],
  ['09', 'g1', null, 'ERROR', 50, 5, 4],
  ['05', 'g2', '2.0', null, 10, 3, 1],
  ['12', 'g1', '1.0', 'WAITING', 90, 2, 2],
  ['03', null, '2.0', 'ERROR', 50, 1, 4],
  ['10', 'g2', '1.0', 'ERROR', 10, 2, 1],
  ['06', 'g1', null, 'WAITING', 50, 5, 2],
  ['08', 'g2', '2.0', 'ERROR', null, 3, 1],
];
const row = (entity: string, prefix: string, [id, group, fw, state, battery, created, seen]: (typeof SHAPES)[number]) =>
  ({
    name: `${prefix}00000000${id}`,
    entity,
    mqtt_secret_hash: 'x',
    group,
    fw_version: fw,
    state_current: state,
    battery,
    is_charging: false,
    created_at: new Date(T0 + created * HOUR),
    updated_at: new Date(T0 + (created + seen) * HOUR),
  }) satisfies Row;

beforeAll(async () => {
  s = await startServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of ['acme', 'globex'])
    await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description: '' } } } });
  for (const entity of ['acme', 'globex'])
    await s.app.db.insert(groups).values(['g1', 'g2'].map((name) => ({ entity, name })));
  // Inserted out of id order, globex's devices between acme's with the same values, so neither
  // the table's order nor the other entity can pass for the list's.
  await s.app.db
    .insert(devices)
    .values(SHAPES.flatMap((shape) => [row('acme', 'a', shape), row('globex', 'b', shape)]));
});
afterAll(async () => s?.close());

type Device = { name: string; entity: string; [k: string]: unknown };
const FIELD: Record<(typeof DEVICE_SORTS)[number], string> = {
  name: 'name',
  group: 'group',
  entity: 'entity',
  fw_version: 'fw_version',
  state: 'state_current',
  created_at: 'created_at',
  updated_at: 'updated_at',
  battery: 'battery',
};

/** The list's order by hand: the column, nulls last either way, then the id in the same direction. */
function byHand(rows: Device[], sort: (typeof DEVICE_SORTS)[number], order: 'asc' | 'desc') {
  const key = (d: Device) => {
    const v = d[FIELD[sort]];
    return v instanceof Date ? v.getTime() : (v as string | number | null);
  };
  const sign = order === 'asc' ? 1 : -1;
  const cmp = (a: string | number, b: string | number) => (a < b ? -sign : a > b ? sign : 0);
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x === null || y === null) return x === y ? cmp(a.name, b.name) : x === null ? 1 : -1;
    return cmp(x, y) || cmp(a.name, b.name);
  });
}

/** The pages of `limit` a user gets pressing Next from the first, or Previous from the last (`forward` false). */
async function walk(path: string, query: string, total: number, limit: number, forward: boolean) {
  const pages: { offset: number; limit: number; names: string[]; total: number }[] = [];
  const step = forward ? limit : -limit;
  for (let from = forward ? 0 : total - limit; forward ? from < total : from > -limit; from += step) {
    // Previous from the last page ends on a short page at 0, as the console's would.
    const [offset, size] = from < 0 ? [0, limit + from] : [from, limit];
    const res = await s.request('GET', `${path}?${query}&limit=${size}&offset=${offset}`, { token: root });
    expect(res.status, `${query} offset ${offset}`).toBe(200);
    pages.push({ offset, limit: size, names: res.body.data.map((d: Device) => d.name), total: res.body.total });
  }
  return pages;
}

const cases = DEVICE_SORTS.flatMap((sort) => (['asc', 'desc'] as const).map((order) => ({ sort, order })));

describe.each([
  { scope: 'acme', path: '/api/v1/tenant/acme/device', filter: '' },
  { scope: 'acme', path: '/api/v1/tenant/acme/device', filter: 'status=ERROR' },
  { scope: 'acme', path: '/api/v1/tenant/acme/device', filter: 'battery=Low' },
  { scope: null, path: '/api/v1/device', filter: '' },
])('$path $filter: pages walked both ways', ({ scope, path, filter }) => {
  it.each(cases)('sort=$sort&order=$order', async ({ sort, order }) => {
    const query = `sort=${sort}&order=${order}${filter ? `&${filter}` : ''}`;
    const q = DeviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
    // Offset paging's reference: the whole filtered list in one ordered statement, and the same by hand.
    const where = deviceFilter(scope, q);
    const whole = (await s.app.db
      .select()
      .from(devices)
      .where(where)
      .orderBy(...deviceOrdering(q))) as Device[];
    expect(whole.map((d) => d.name)).toEqual(byHand(whole, sort, order).map((d) => d.name));
    if (scope) expect(whole.every((d) => d.entity === scope)).toBe(true);
    const all = whole.map((d) => d.name);
    expect(all.length).toBeGreaterThan(4);
    const limit = 4;
    const next = await walk(path, query, all.length, limit, true);
    const previous = await walk(path, query, all.length, limit, false);
    for (const page of [...next, ...previous]) {
      expect(page.total).toBe(all.length);
      expect(page.names, `limit ${limit} offset ${page.offset}`).toEqual(
        all.slice(page.offset, page.offset + page.limit),
      );
    }
    expect(next.flatMap((p) => p.names)).toEqual(all);
    expect(previous.reverse().flatMap((p) => p.names)).toEqual(all);
    // Both forms of the page statement, whichever the database's mode picks for the route.
    for (const deferred of [false, true])
      for (let offset = 0; offset < all.length; offset++) {
        const fromEnd = offset > all.length / 2;
        const size = Math.min(limit, all.length - offset);
        const page = { offset: fromEnd ? all.length - offset - size : offset, limit: size, reverse: fromEnd };
        const rows = await pageQuery(s.app.db, where, q, page, deferred);
        const got = rows.map((d) => d.name);
        expect(fromEnd ? got.reverse() : got, `deferred ${deferred} offset ${offset}`).toEqual(
          all.slice(offset, offset + size),
        );
      }
    const past = await s.request('GET', `${path}?${query}&limit=3&offset=${all.length}`, { token: root });
    expect(past.body).toEqual({ data: [], total: all.length });
  });
});
