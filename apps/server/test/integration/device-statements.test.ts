// What a device's creation and deletion cost the database with their audit entries (issue 26):
// on the embedded database every statement and a transaction's BEGIN/COMMIT is a round trip on
// its one connection, so each change is written with its entry in ONE statement, as a command's
// row is (command-statements.test.ts; bench/notes/audit-and-history-cost.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { devices } from '../../src/db/schema.ts';
import { auditedReturning } from '../../src/domain/audit/audited-returning.ts';
import { notFound } from '../../src/lib/http-error.ts';
import type { TestServer } from '../helpers/server.ts';
import { randomDeviceId as hex, startWithTwoEntities } from '../helpers/devices.ts';

let s: TestServer;
let root = '';
let ACME = '';

beforeAll(async () => {
  ({ s, root, acme: ACME } = await startWithTwoEntities());
});
afterAll(async () => {
  await s?.close();
});

/** The statements the server sends the database while `fn` runs that carry `name` in a parameter. */
async function statementsNaming<T>(name: string, fn: () => Promise<T>): Promise<{ result: T; texts: string[] }> {
  const texts: string[] = [];
  const probe = s.app.database.probe;
  probe.traceQuery = (text, values) => {
    // Other work runs meanwhile (sweeps, flushes); this device's statements carry its name.
    if (values.some((v) => String(v).includes(name))) texts.push(text.replace(/\s+/g, ' ').trim().toLowerCase());
  };
  try {
    return { result: await fn(), texts };
  } finally {
    probe.traceQuery = null;
  }
}

const entriesOf = async (action: string, name: string) => {
  const res = await s.request('GET', `/api/v1/tenant/${ACME}/audit?action=${action}&search=${name}`, { token: root });
  return res.body.data.filter((e: any) => e.target.name === name);
};

describe('a device created and deleted', () => {
  it('costs one statement each, the change with its audit entry, besides the deletion finding the device', async () => {
    const name = hex();
    const created = await statementsNaming(name, () =>
      s.request('POST', `/api/v1/tenant/${ACME}/device`, { token: root, body: { document: { name } } }),
    );
    expect(created.result.status).toBe(201);
    expect(created.texts).toHaveLength(1);
    expect(created.texts[0]).toMatch(/^with "audit_entry" as \( ?insert into "audit_entries"/);
    expect(created.texts[0]).toContain('insert into "devices"');

    const deleted = await statementsNaming(name, () =>
      s.request('DELETE', `/api/v1/tenant/${ACME}/device/${name}`, { token: root }),
    );
    expect(deleted.result.status).toBe(200);
    expect(deleted.texts).toHaveLength(2);
    expect(deleted.texts[0]).toMatch(/^select .* from "devices"/);
    expect(deleted.texts[1]).toMatch(/^with c as \( ?delete from "devices"/);
    expect(deleted.texts[1]).toContain('insert into audit_entries');

    expect(await entriesOf('device.create', name)).toHaveLength(1);
    const [entry, ...more] = await entriesOf('device.delete', name);
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({ outcome: 'success', changes: { before: { name, entity: ACME } } });
  });

  it('leaves no entry of a deletion that matched no row (deleted meanwhile), and refuses it 404 as a failure', async () => {
    const name = hex();
    const ctx = { actor: { kind: 'account', id: 'root', name: 'root' }, address: null, userAgent: null } as const;
    const entry = { action: 'device.delete', entity: ACME, target: { type: 'device', name } } as const;
    const gone = auditedReturning(
      s.app.database.db,
      ctx,
      { ...entry, before: { name } },
      sql`delete from ${devices} where ${devices.name} = ${name} returning ${devices.name}`,
      { none: () => notFound('Device') },
    );
    await expect(gone).rejects.toMatchObject({ statusCode: 404 });
    const entries = await entriesOf('device.delete', name);
    expect(entries.map((e: any) => [e.outcome, e.changes])).toEqual([['failure', null]]);
  });
});
