import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';
import { DEMO_DATAVIEWS, provisionDemoDataviews } from '../../../simulator/src/demo-dataviews.ts';

let s: TestServer;
let root = '';
let boss = '';
const base = '/api/v1/tenant/acme/dataview';
const content = (items: object[] = []) => ({ format: 1, name: 'ignored', displayName: 'Shown', layout: { items } });

async function mkAccount(name: string, subtype: string, entity = 'acme') {
  const res = await s.request('POST', '/api/v1/account', {
    token: root,
    body: { document: { name, email: `${name}@x.test`, password: 'password-1', subtype, entity, access: ['all'] } },
  });
  expect(res.status).toBe(201);
}
const add = (document: object, token = boss, entity = 'acme') =>
  s.request('POST', `/api/v1/tenant/${entity}/dataview`, { token, body: { document } });
const put = (name: string, $set: object, token = boss) =>
  s.request('PUT', `${base}/${name}`, { token, body: { operator: { $set } } });
const get = (name: string, token = boss, entity = 'acme') =>
  s.request('GET', `/api/v1/tenant/${entity}/dataview/${name}`, { token });

beforeAll(async () => {
  s = await startServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of ['acme', 'globex', 'initech']) {
    await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description: '' } } } });
  }
  await mkAccount('boss', 'admin');
  await mkAccount('dev1', 'developer');
  await mkAccount('dev2', 'developer');
  await mkAccount('oper', 'operator');
  await mkAccount('gboss', 'admin', 'globex');
  boss = (await signIn(s, 'boss', 'password-1')).access_token;
});
afterAll(async () => s?.close());

describe('dataview CRUD', () => {
  it('adds with default content from the name and description, and reads it back with content', async () => {
    const res = await add({ name: 'lobby', description: 'Lobby screen', version: '1.0', owner: 'dev1' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'lobby',
      entity: 'acme',
      owner: 'dev1',
      authorized_accounts: ['dev1'],
      content: { format: 1, name: 'lobby', displayName: 'Lobby screen', layout: { items: [] } },
    });
    const noDesc = await add({ name: 'bare', version: '1', owner: 'boss', content: {} });
    expect(noDesc.body.data.content.displayName).toBe('bare');
    const one = await get('lobby');
    expect(one.status).toBe(200);
    expect(one.body.data.content.name).toBe('lobby');
  });

  it('checks names, version and content with the spec messages', async () => {
    const bad = await add({ name: 'no spaces', version: '', owner: 'boss' });
    expect(bad.status).toBe(400);
    expect(bad.body.errorInfo.details['document.name']).toEqual([
      'The field may contain alpha-numeric characters as well as underscores',
    ]);
    expect(bad.body.errorInfo.details['document.version']).toEqual(['This field is required']);
    const wrongFormat = await add({ name: 'fmt', version: '1', owner: 'boss', content: { hello: 'world' } });
    expect(wrongFormat.status).toBe(400);
    expect(Object.keys(wrongFormat.body.errorInfo.details)).toContain('document.content.format');
    const outside = await add({
      name: 'outside',
      version: '1',
      owner: 'boss',
      content: content([{ i: 'a', type: 'text', x: 2, y: 0, w: 2, h: 1 }]),
    });
    expect(outside.status).toBe(400);
    const overlap = await add({
      name: 'overlap',
      version: '1',
      owner: 'boss',
      content: content([
        { i: 'a', type: 'text', x: 0, y: 0, w: 2, h: 2 },
        { i: 'b', type: 'metric', x: 1, y: 1, w: 1, h: 1 },
      ]),
    });
    expect(overlap.status).toBe(400);
    expect(JSON.stringify(overlap.body.errorInfo.details)).toMatch(/overlaps/);
    expect((await add({ name: 'lobby', version: '2', owner: 'boss' })).status).toBe(409);
  });

  it('keeps content at exactly 1000000 bytes and refuses one byte more with the spec message', async () => {
    const shell = JSON.stringify({ ...content(), name: 'big', blob: '' }).length;
    const exact = { ...content(), blob: 'x'.repeat(1_000_000 - shell) };
    const ok = await add({ name: 'big', version: '1', owner: 'boss', content: exact });
    expect(ok.status).toBe(201);
    expect(Buffer.byteLength(JSON.stringify(ok.body.data.content))).toBe(1_000_000);
    const over = await put('big', { content: { ...exact, blob: `${exact.blob}x` } });
    expect(over.status).toBe(413);
    expect(over.body.errorInfo.userMessage).toBe('File is too big. Only files up to 1000000 Bytes are allowed.');
    // Multi-byte characters count as bytes, not characters.
    const euro = await put('big', { content: { ...content(), blob: '€'.repeat(333_330) } });
    expect(euro.status).toBe(413);
    expect((await get('big')).body.data.content.blob).toBe(exact.blob);
  });

  it('saves a designed layout, follows a rename, and deletes', async () => {
    const items = [
      { i: 'title', type: 'text', x: 0, y: 0, w: 3, h: 1, title: 'Welcome', props: { text: 'Hi' } },
      { i: 'm1', type: 'metric', x: 0, y: 1, w: 1, h: 2, title: 'Battery' },
    ];
    const saved = await put('lobby', { content: content(items) });
    expect(saved.status).toBe(200);
    const renamed = await put('lobby', { name: 'lobby_v2', version: '1.1' });
    expect(renamed.body.data.content).toMatchObject({ name: 'lobby_v2', layout: { items } });
    expect((await get('lobby')).status).toBe(404);
    expect((await get('lobby_v2')).body.data.content.layout.items).toHaveLength(2);
    expect((await put('lobby_v2', { content: null })).body.data.content.layout.items).toEqual([]);
    expect((await s.request('DELETE', `${base}/lobby_v2`, { token: boss })).status).toBe(200);
    expect((await get('lobby_v2')).status).toBe(404);
  });
});

describe('owner and authorised accounts', () => {
  it('are admin or developer accounts of the entity, with the owner always authorised', async () => {
    const res = await add({ name: 'kiosk_ui', version: '1', owner: 'dev1', authorized_accounts: ['dev2'] });
    expect(res.body.data.authorized_accounts).toEqual(['dev1', 'dev2']);
    const operatorOwner = await add({ name: 'x1', version: '1', owner: 'oper' });
    expect(operatorOwner.status).toBe(400);
    expect(operatorOwner.body.errorInfo.details).toHaveProperty('document.owner');
    const foreign = await add({ name: 'x2', version: '1', owner: 'dev1', authorized_accounts: ['gboss', 'ghost'] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errorInfo.details['document.authorized_accounts'][0]).toMatch(/gboss, ghost/);
    // A new owner joins the authorised accounts; the old one stays until removed.
    const moved = await put('kiosk_ui', { owner: 'boss' });
    expect(moved.body.data.authorized_accounts).toEqual(['boss', 'dev1', 'dev2']);
    const trimmed = await put('kiosk_ui', { authorized_accounts: [] });
    expect(trimmed.body.data.authorized_accounts).toEqual(['boss']);
  });

  it('stay consistent when an owner or authorised account is deleted or renamed', async () => {
    await mkAccount('temp_owner', 'developer');
    await mkAccount('temp_user', 'developer');
    await add({ name: 'orphan', version: '1', owner: 'temp_owner', authorized_accounts: ['temp_user', 'dev1'] });
    await s.request('PUT', '/api/v1/account/temp_user', {
      token: root,
      body: { operator: { $set: { name: 'renamed_user' } } },
    });
    expect((await get('orphan')).body.data.authorized_accounts).toEqual(['dev1', 'renamed_user', 'temp_owner']);
    expect((await s.request('DELETE', '/api/v1/account/temp_owner', { token: root })).status).toBe(200);
    expect((await s.request('DELETE', '/api/v1/account/renamed_user', { token: root })).status).toBe(200);
    const after = await get('orphan');
    expect(after.body.data).toMatchObject({ owner: null, authorized_accounts: ['dev1'] });
    // Nothing else changes until a new owner is chosen.
    const blocked = await put('orphan', { description: 'x' });
    expect(blocked.status).toBe(400);
    expect(blocked.body.errorInfo.details).toHaveProperty('owner');
    const fixed = await put('orphan', { owner: 'dev2', description: 'x' });
    expect(fixed.body.data).toMatchObject({ owner: 'dev2', authorized_accounts: ['dev1', 'dev2'] });
  });
});

describe('entity isolation', () => {
  it("answers another entity's dataview as a missing one, for reads and writes", async () => {
    await add({ name: 'secret', version: '1', owner: 'gboss' }, root, 'globex');
    for (const [method, path] of [
      ['GET', '/api/v1/tenant/globex/dataview/secret'],
      ['PUT', '/api/v1/tenant/globex/dataview/secret'],
      ['DELETE', '/api/v1/tenant/globex/dataview/secret'],
      ['GET', '/api/v1/tenant/globex/dataview'],
    ] as const) {
      const res = await s.request(method, path, {
        token: boss,
        body: method === 'PUT' ? { operator: { $set: { description: 'x' } } } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.text).not.toMatch(/gboss/);
    }
    expect((await get('secret')).status).toBe(404);
    expect((await add({ name: 'x', version: '1', owner: 'boss' }, root, 'nowhere')).status).toBe(404);
  });
});

describe('landlord list', () => {
  beforeAll(async () => {
    await mkAccount('iadmin', 'admin', 'initech');
    for (let i = 0; i < 23; i++) {
      const res = await add(
        { name: `page_${String(i).padStart(2, '0')}`, version: i % 2 ? '2' : '3', owner: 'iadmin' },
        root,
        'initech',
      );
      expect(res.status).toBe(201);
    }
  });

  it('pages in the database with limit and offset, and loads all with limit 0', async () => {
    const first = await s.request('GET', '/api/v1/dataview?entity=initech&limit=15&offset=0', { token: root });
    expect(first.body.total).toBe(23);
    expect(first.body.data).toHaveLength(15);
    expect(first.body.data[0]).not.toHaveProperty('content');
    const second = await s.request('GET', '/api/v1/dataview?entity=initech&limit=15&offset=15', { token: root });
    expect(second.body.data.map((d: { name: string }) => d.name)).toEqual(
      Array.from({ length: 8 }, (_, i) => `page_${15 + i}`),
    );
    const all = await s.request('GET', '/api/v1/dataview?limit=0&offset=0', { token: root });
    expect(all.body.data.length).toBe(all.body.total);
    expect(new Set(all.body.data.map((d: { entity: string }) => d.entity))).toEqual(
      new Set(['acme', 'globex', 'initech']),
    );
  });

  it('filters by entity, owner and version checkboxes (several values each)', async () => {
    const v2 = await s.request('GET', '/api/v1/dataview?version=2&entity=initech', { token: root });
    expect(v2.body.total).toBe(11);
    const owners = await s.request('GET', '/api/v1/dataview?owner=gboss&owner=dev2', { token: root });
    expect(owners.body.data.map((d: { name: string }) => d.name).sort()).toEqual(['orphan', 'secret']);
    const two = await s.request('GET', '/api/v1/dataview?entity=acme&entity=globex&limit=50', { token: root });
    expect(two.body.data.every((d: { entity: string }) => d.entity !== 'initech')).toBe(true);
    const none = await s.request('GET', '/api/v1/dataview?version=nope', { token: root });
    expect(none.body).toEqual({ data: [], total: 0 });
    const facets = await s.request('GET', '/api/v1/dataview/facets', { token: root });
    expect(facets.body.entities).toEqual(['acme', 'globex', 'initech']);
    expect(facets.body.versions).toEqual(expect.arrayContaining(['1', '2', '3']));
    expect(facets.body.owners).toContain('iadmin');
    const bad = await s.request('GET', '/api/v1/dataview?limit=-1', { token: root });
    expect(bad.status).toBe(400);
  });

  it('gets one by entity and name with its content', async () => {
    const res = await s.request('GET', '/api/v1/tenant/initech/dataview/page_03', { token: root });
    expect(res.body.data.content).toMatchObject({ format: 1, name: 'page_03' });
  });

  it('is gone with its entity', async () => {
    expect((await s.request('DELETE', '/api/v1/tenant/initech', { token: root })).status).toBe(200);
    const res = await s.request('GET', '/api/v1/dataview?entity=initech', { token: root });
    expect(res.body.total).toBe(0);
  });
});

describe('malformed input', () => {
  it('answers 4xx in the envelope, never a 500', async () => {
    const bodies: unknown[] = [
      'not json',
      [],
      { document: null },
      { document: { name: 'x', version: 1, owner: ['boss'] } },
      { document: { name: 'x', version: '1', owner: 'boss', authorized_accounts: 'boss' } },
      { document: { name: 'x', version: '1', owner: 'boss', content: 'text' } },
      { document: { name: 'x', version: '1', owner: 'boss', content: [1, 2] } },
      { document: { name: 'x', version: '1', owner: 'boss', content: { format: 1, layout: { items: 'no' } } } },
      { document: { name: 'x'.repeat(5000), version: '1', owner: 'boss' } },
      { operator: { $set: { hacked: true } } },
    ];
    for (const body of bodies) {
      for (const [method, path] of [
        ['POST', base],
        ['PUT', `${base}/kiosk_ui`],
      ] as const) {
        const res = await s.request(method, path, { token: boss, body });
        expect(res.status, `${method} ${JSON.stringify(body).slice(0, 80)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body.errorInfo.code).toBe(res.status);
      }
    }
    for (const q of ['limit=abc', 'offset=-5', 'limit=1e9', `entity=${'e'.repeat(100)}`, `version=${'v'.repeat(65)}`]) {
      const res = await s.request('GET', `/api/v1/dataview?${q}`, { token: root });
      expect(res.status, q).toBe(400);
    }
    const huge = await s.request('PUT', `${base}/kiosk_ui`, {
      token: boss,
      body: { operator: { $set: { content: { format: 1, blob: 'x'.repeat(5_000_000) } } } },
    });
    expect(huge.status).toBe(413);
  });
});

describe('demo dataviews', () => {
  it('are valid format-1 layouts, added once and kept on a second run', async () => {
    const statuses: number[] = [];
    const call = async (method: string, path: string, body: unknown) => {
      const res = await s.request(method, `/api/v1/${path}`, { token: root, body });
      statuses.push(res.status);
      return res;
    };
    await provisionDemoDataviews(call, 'acme', 'boss');
    await provisionDemoDataviews(call, 'acme', 'boss');
    expect(statuses).toEqual([...DEMO_DATAVIEWS.map(() => 201), ...DEMO_DATAVIEWS.map(() => 409)]);
    const one = await get('medication_panel');
    expect(one.body.data.content.layout.items).toHaveLength(4);
  });
});
