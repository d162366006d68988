import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesOf as entriesOfAll } from '../helpers/audit.ts';
import type { TestServer } from '../helpers/server.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

// Files and firmware uploaded and deleted: each with its entry (target, before/after), a bulk
// delete as one entry with the count and the names, a refusal with its reason, and none of it
// visible to another entity's admin. On the worker's shared server: the entries read are its
// own entity's.
let s: TestServer;
let acme = '';
let globex = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const files = () => `/api/v1/tenant/${acme}/files`;
const fw = () => `/api/v1/tenant/${acme}/firmware`;
const at = () => ({ level: 'entity', entity_id: acme });
const firmware = (version: string) => ({ ...at(), version, device_type: 'CC2', description: 'build' });
const del = (path: string) => s.request('DELETE', path, { token: t.admin });
const entriesOf = (srv: TestServer, action: string) => entriesOfAll(srv, action, { entities: [acme] });

beforeAll(async () => {
  ({ s, acme, globex, tokens: t } = await startForUploads({}, { shared: true }));
});
afterAll(async () => s?.close());

describe('audit entries of files and firmware', () => {
  it('records a file uploaded and deleted, and a bulk delete as one entry', async () => {
    const up = await upload(s, files(), t.admin, { fields: at(), bytes: 100, filename: 'app.json' });
    expect(up.status).toBe(201);
    const [created] = await entriesOf(s, 'file.create');
    expect(created).toMatchObject({ entity: acme, target_type: 'file', target_name: 'app.json', outcome: 'success' });
    expect(created.changes.after).toMatchObject({
      id: up.body.data.id,
      level: 'entity',
      target: acme,
      size_bytes: 100,
    });

    expect((await del(`${files()}/${up.body.data.id}`)).status).toBe(200);
    const [deleted] = await entriesOf(s, 'file.delete');
    expect(deleted).toMatchObject({ target_name: 'app.json', outcome: 'success' });
    expect(deleted.changes.before).toMatchObject({ id: up.body.data.id, filename: 'app.json' });

    for (const filename of ['a.bin', 'b.bin']) {
      expect((await upload(s, files(), t.admin, { fields: at(), bytes: 10, filename })).status).toBe(201);
    }
    expect((await del(`${files()}/all?level=entity&entity_id=${acme}`)).status).toBe(200);
    const bulk = (await entriesOf(s, 'file.delete')).at(-1);
    expect(bulk).toMatchObject({ target_name: null, details: { count: 2, level: 'entity', target: acme } });
    expect([...bulk.details.names].sort()).toEqual(['a.bin', 'b.bin']);
  });

  it('records firmware uploaded, a duplicate refused with its reason, and deleted', async () => {
    const one = { field: 'firmware_file', fields: firmware('1.0.0'), bytes: 64, filename: 'fw-1.bin' };
    const up = await upload(s, fw(), t.admin, one);
    expect(up.status).toBe(201);
    expect((await upload(s, fw(), t.admin, one)).status).toBe(409);
    const [created, refused] = await entriesOf(s, 'firmware.create');
    expect(created).toMatchObject({ entity: acme, target_type: 'firmware', target_name: 'fw-1.bin' });
    expect(created.changes.after).toMatchObject({ version: '1.0.0', device_type: 'CC2', description: 'build' });
    expect(refused).toMatchObject({ outcome: 'failure', target_name: 'fw-1.bin', changes: null });
    expect(refused.reason).toContain('same version');

    expect((await del(`${fw()}/${up.body.data.id}`)).status).toBe(200);
    const [deleted] = await entriesOf(s, 'firmware.delete');
    expect(deleted).toMatchObject({ entity: acme, target_name: 'fw-1.bin', outcome: 'success' });
    expect(deleted.changes.before).toMatchObject({ version: '1.0.0', filename: 'fw-1.bin' });
  });

  it("shows none of them to another entity's admin, by any filter", async () => {
    const mine = await s.request('GET', `/api/v1/tenant/${acme}/audit?target_type=file`, { token: t.admin });
    expect(mine.body.total).toBe(5);
    for (const q of ['target_type=file', 'target_type=firmware', 'action=file.delete', 'search=fw-1']) {
      const theirs = await s.request('GET', `/api/v1/tenant/${globex}/audit?${q}`, { token: t.other });
      expect(theirs.status).toBe(200);
      expect(theirs.body).toEqual({ data: [], total: 0, total_is_lower_bound: false });
      const across = await s.request('GET', `/api/v1/tenant/${acme}/audit?${q}`, { token: t.other });
      expect([403, 404]).toContain(across.status);
    }
  });
});
