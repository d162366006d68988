import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAudit } from '../../src/domain/audit/export-audit.ts';
import { sweepAudit } from '../../src/domain/audit/sweep-audit.ts';
import { entriesOf } from '../helpers/audit.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

// Reading the audit log: who may, what each entity sees, the export against the paged list,
// and the retention sweep as the only deletion.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const token = { admin: '', operator: '', globexAdmin: '' };
const globexDevice = randomDeviceId();

const get = (path: string, t = token.admin) => s.request('GET', path, { token: t });
const device = (entity: string, name: string, t = root, description = `unit ${name}`, agent = 'audit-read') =>
  s.request('POST', `/api/v1/tenant/${entity}/device`, {
    token: t,
    headers: { 'user-agent': agent },
    body: { document: { name, description, manufacturing_type: 'CC1' } },
  });

/** The records of a CSV text (RFC 4180: quoted fields with doubled quotes, CRLF lines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  const end = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      for (i++; i < text.length && !(text[i] === '"' && text[i + 1] !== '"'); i++)
        field += text[i] === '"' ? text[++i] : text[i];
    } else if (c === ',') end();
    else if (c === '\r' && text[i + 1] === '\n') {
      end();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  return rows;
}

/** An entry's CSV record as csvField writes the list's entry: formula characters defused, JSON parsed. */
const csvOf = (e: any) =>
  [e.id, e.at, e.entity, e.actor.kind, e.actor.id, e.actor.name, e.actor.account, e.address, e.user_agent]
    .concat([e.action, e.target.type, e.target.name, e.outcome, e.reason, e.changes, e.details])
    .map((v) => (v === null ? '' : typeof v === 'string' ? (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) : v));
const parsedRecord = (r: string[]) => r.map((v, i) => (i >= 14 && v !== '' ? JSON.parse(v) : v));

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities());
  token.admin = (await createAccount(s, root, { name: `adm_${acme}`, entity: acme, subtype: 'admin' })).access_token;
  token.operator = (
    await createAccount(s, root, { name: `op_${acme}`, entity: acme, subtype: 'operator' })
  ).access_token;
  token.globexAdmin = (
    await createAccount(s, root, { name: `adm_${globex}`, entity: globex, subtype: 'admin' })
  ).access_token;
  for (let i = 0; i < 6; i++) expect((await device(acme, randomDeviceId(), token.admin)).status).toBe(201);
  // A field to escape in the file: a formula, quotes, a comma and a line break.
  const hostile = await device(acme, randomDeviceId(), token.admin, '=1+"two",\nthree', '@agent "x", y');
  expect(hostile.status).toBe(201);
  expect((await device(globex, globexDevice)).status).toBe(201);
});
afterAll(async () => s?.close());

describe('the audit log read', () => {
  it("answers an entity's entries newest first with a total, paged and filtered", async () => {
    const all = await get(`/api/v1/tenant/${acme}/audit?limit=500`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(all.body.data.length);
    const times = all.body.data.map((e: any) => e.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.body.data.every((e: any) => e.entity === acme)).toBe(true);

    const page = await get(`/api/v1/tenant/${acme}/audit?action=device.create&limit=3&offset=2`);
    expect(page.body.total).toBe(7);
    expect(page.body.data).toHaveLength(3);
    const byActor = await get(`/api/v1/tenant/${acme}/audit?actor=adm_${acme}&action=device.create`);
    expect(byActor.body.total).toBe(7);
    const target = page.body.data[0].target.name;
    const named = await get(`/api/v1/tenant/${acme}/audit?target_type=device&target_name=${target}`);
    expect(named.body.data.map((e: any) => e.target.name)).toEqual([target]);
    const text = await get(`/api/v1/tenant/${acme}/audit?search=${target.slice(2, 9)}`);
    expect(text.body.data.map((e: any) => e.target.name)).toContain(target);
    const future = await get(`/api/v1/tenant/${acme}/audit?from=${new Date(Date.now() + 60_000).toISOString()}`);
    expect(future.body).toEqual({ data: [], total: 0, total_is_lower_bound: false });
    expect((await get(`/api/v1/tenant/${acme}/audit?outcome=failure`)).body.total).toBe(0);
  });

  it("never shows another entity's entries, by any filter", async () => {
    const filters = [
      '',
      `target_name=${globexDevice}`,
      `search=${globexDevice}`,
      `actor=adm_${globex}`,
      `entity=${globex}`,
      'action=device.create&limit=500',
    ];
    for (const f of filters) {
      const res = await get(`/api/v1/tenant/${acme}/audit?${f}`);
      if (res.status !== 200) {
        expect(res.status).toBe(400);
        continue;
      }
      expect(res.body.data.filter((e: any) => e.entity !== acme)).toEqual([]);
      expect(JSON.stringify(res.body)).not.toContain(globexDevice);
    }
    expect((await get(`/api/v1/tenant/${globex}/audit`)).status).toBe(404);
    expect((await get(`/api/v1/audit`)).status).toBe(403);
    expect((await get(`/api/v1/tenant/${globex}/audit/export?format=json`)).status).toBe(404);
    const exported = await get(`/api/v1/tenant/${acme}/audit/export?format=csv&search=${globexDevice}`);
    expect(exported.text).not.toContain(globexDevice);
  });

  it('refuses operators (and records the refusal); superadmins read every entity or one', async () => {
    expect((await get(`/api/v1/tenant/${acme}/audit`, token.operator)).status).toBe(403);
    expect((await get(`/api/v1/tenant/${acme}/audit/export`, token.operator)).status).toBe(403);
    const denied = await entriesOf(s, 'access.deny');
    expect(denied.map((e) => [e.entity, e.actor_name, e.target_name])).toContainEqual([
      acme,
      `op_${acme}`,
      'GET /api/v1/tenant/:entity/audit',
    ]);
    const every = await get('/api/v1/audit?limit=500', root);
    expect(new Set(every.body.data.map((e: any) => e.entity))).toEqual(new Set([acme, globex, null]));
    const one = await get(`/api/v1/audit?entity=${globex}&limit=500`, root);
    expect(one.body.data.length).toBeGreaterThan(0);
    expect(one.body.data.every((e: any) => e.entity === globex)).toBe(true);
    const landlord = await get('/api/v1/audit?entity=landlord&limit=500', root);
    expect(landlord.body.data.every((e: any) => e.entity === null)).toBe(true);
  });

  it('exports the whole filtered list, equal to the paged list, as JSON and CSV named by entity and date', async () => {
    const pages: any[] = [];
    for (let offset = 0; ; offset += 4) {
      const res = await get(`/api/v1/tenant/${acme}/audit?limit=4&offset=${offset}`);
      pages.push(...res.body.data);
      if (res.body.data.length < 4) break;
    }
    const json = await get(`/api/v1/tenant/${acme}/audit/export?format=json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toBe(
      `attachment; filename="audit-${acme}-${new Date().toISOString().slice(0, 10)}.json"`,
    );
    expect(json.body).toEqual(pages);
    const csv = await get(`/api/v1/tenant/${acme}/audit/export?format=csv`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^id,at,entity,actor_kind/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(pages.map((e) => e.id));
    const records = parseCsv(csv.text);
    expect(records.slice(1).map(parsedRecord)).toEqual(pages.map(csvOf));
    expect(records.some((r) => r[8] === `'@agent "x", y`)).toBe(true);
    const filtered = await get(`/api/v1/tenant/${acme}/audit/export?format=json&action=device.create`);
    expect(filtered.body).toHaveLength(7);
    // Batches of three joined two at a time: each continues after the last one's time and id,
    // losing and repeating nothing.
    let small = '';
    for await (const text of exportAudit(s.app.db, acme, {}, 'json', { batch: 3, part: 2 })) small += text;
    expect(JSON.parse(small)).toEqual(pages);
  });

  it('keeps entries append-only: no update, and the sweep removes only those older than the retention', async () => {
    const refused: any = await s.app.db.execute(sql`update audit_entries set reason = 'x'`).catch((err) => err);
    expect(String(refused.cause)).toMatch(/append-only/);
    const before = (await get(`/api/v1/tenant/${acme}/audit?limit=1`)).body.total;
    const [newest] = (await get(`/api/v1/tenant/${acme}/audit?limit=1`)).body.data;
    await s.app.db.execute(sql`
      insert into audit_entries (at, entity, actor_kind, action, target_type, target_name, outcome)
      values (now() - interval '366 days', ${acme}, 'system', 'device.delete', 'device', 'old-one', 'success'),
             (now() - interval '364 days', ${acme}, 'system', 'device.delete', 'device', 'young-one', 'success')`);
    expect(await sweepAudit(s.app.db, 365, 1)).toBe(1);
    const after = await get(`/api/v1/tenant/${acme}/audit?limit=500`);
    expect(after.body.total).toBe(before + 1);
    expect(after.body.data.map((e: any) => e.target.name)).toContain('young-one');
    expect(after.body.data.map((e: any) => e.target.name)).not.toContain('old-one');
    expect(after.body.data[0].id).toBe(newest.id);
  });
});
