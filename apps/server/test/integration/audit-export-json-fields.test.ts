import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { csvField } from '../helpers/csv-field.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// The audit CSV's two JSON fields (csvJson, src/db/export-lines.ts) are the jsonb text as
// csvField writes it, made once a row: an object quoted as it is, `{}` bare, and any other JSON
// value (never written by the product, but a row may hold one) through the general rules.
let s: TestServer;
let root = '';
let acme = '';
const VALUES = [
  '{"after": {"description": "a \\"quoted\\", line\\nbreak"}, "before": {}}',
  '{}',
  '[1, "a,b"]',
  '"-x"',
  '"=1+1"',
  '-3',
  'true',
  'null',
];

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities({}, { shared: true }));
  for (const [i, value] of VALUES.entries()) {
    await s.app.db.execute(sql`
      insert into audit_entries (at, entity, actor_kind, action, target_type, target_name, outcome, changes, details)
      values (now() - make_interval(secs => ${i}), ${acme}, 'system', 'device.update', 'device', ${`json-${i}`},
              'success', ${value}::jsonb, case when ${i} % 2 = 0 then ${value}::jsonb end)`);
  }
});
afterAll(async () => s?.close());

describe('audit export JSON fields', () => {
  it('writes changes and details as csvField writes their jsonb text, whatever the JSON value', async () => {
    const stored = rowsOf<{ changes: string | null; details: string | null }>(
      await s.app.db.execute(sql`
        select changes::text as changes, details::text as details from audit_entries
        where entity = ${acme} and target_name like 'json-%' order by at desc, id desc`),
    );
    expect(stored).toHaveLength(VALUES.length);
    const res = await s.request('GET', `/api/v1/tenant/${acme}/audit/export?format=csv&action=device.update`, {
      token: root,
    });
    expect(res.status, res.text).toBe(200);
    // The last two fields of each line, after the fourteen plain ones (none of which needs escaping here).
    const tails = res.text
      .split('\r\n')
      .slice(1)
      .filter((line) => line.includes(',json-'))
      .map((line) => line.split(',').slice(14).join(','));
    expect(tails).toEqual(stored.map((r) => `${csvField(r.changes)},${csvField(r.details)}`));
  });
});
