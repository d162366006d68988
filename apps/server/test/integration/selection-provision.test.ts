// Provisioning everything a filter matches (issue 27): connected devices only, the dry run says how
// many are offline or unresponsive; exactly the connected devices of the counted set get a session,
// one selection audit entry; another entity's devices are never counted or provisioned.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { files } from '../../src/db/schema.ts';
import { entriesOf } from '../helpers/audit.ts';
import {
  s,
  acme,
  globex,
  ann,
  gus,
  addDevices,
  count,
  done,
  quiet,
  useSelectionWorld,
  sel,
} from '../helpers/selection-world.ts';

async function addFile(entity: string) {
  await s.app.db.insert(files).values({
    id: randomUUID(),
    entity,
    level: 'entity',
    target: entity,
    filename: 'config.json',
    size_bytes: 2,
    sha256: 'b'.repeat(64),
    blob_key: randomUUID(),
    file_device_path: '/config.json',
  });
}
const plan = (entity: string | null, id: string, token = ann, body: unknown = {}) =>
  s.request('POST', `${sel(entity)}/${id}/provision/plan`, { token, body });
const provision = (entity: string | null, id: string, token = ann, body: unknown = {}) =>
  s.request('POST', `${sel(entity)}/${id}/provision`, { token, body });
const sessionsOf = async (names: string[]) =>
  rowsOf<{ device: string }>(
    await s.app.db.execute(
      sql`select device from provision_sessions where device in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb)) order by device`,
    ),
  ).map((r) => r.device);

let online: string[] = [];
let asleep: string[] = [];
let silent: string[] = [];
let theirs: string[] = [];

useSelectionWorld({ shared: true });

beforeAll(async () => {
  await addFile(acme);
  await addFile(globex);
  online = await addDevices(acme, 3, { battery: 10, online: true });
  asleep = await addDevices(acme, 2, { battery: 10, online: false });
  silent = await addDevices(acme, 1, { battery: 10, online: true, updated_at: quiet });
  await addDevices(acme, 2, { battery: 90, online: true });
  theirs = await addDevices(globex, 2, { battery: 10, online: true });
});

describe('provisioning everything a filter matches', () => {
  it('the dry run says how many are offline; exactly the connected devices of the set get a session', async () => {
    const dry = await count(acme, 'battery=Low');
    const id = dry.body.data.id;
    const p = await plan(acme, id);
    expect(p.status).toBe(200);
    expect(p.body.data).toEqual({ total: 6, start: 3, offline: 2, unresponsive: 1, gone: 0 });
    const late = await addDevices(acme, 1, { battery: 5, online: true });

    const res = await provision(acme, id);
    expect(res.status).toBe(202);
    expect(await done(acme, id)).toMatchObject({ action: 'provision', total: 6, done: 6 });
    expect(await sessionsOf([...online, ...asleep, ...silent, ...late, ...theirs])).toEqual([...online].sort());

    const entries = (await entriesOf(s, 'provision.start')).filter((e) => e.details?.selection === id);
    expect(entries).toHaveLength(1);
    expect(entries[0].details).toMatchObject({ count: 6, plan: { start: 3, offline: 2 } });
    // The selection's entry is the start: no second `provision.start` per device (docs/audit.md).
    const perDevice = (await entriesOf(s, 'provision.start')).filter((e) => online.includes(e.target_name));
    expect(perDevice).toEqual([]);
    expect((await provision(acme, id)).status).toBe(409);
  });

  it('never counts or provisions another entity’s devices, whatever the filter', async () => {
    for (const q of ['battery=Low', `entity=${globex}`, `search=${theirs[0]!.slice(0, 6)}`, 'seen=online']) {
      const { body } = await count(acme, q);
      expect((await plan(acme, body.data.id)).body.data.total, q).toBe(body.data.total);
      await provision(acme, body.data.id);
      await done(acme, body.data.id);
    }
    expect(await sessionsOf(theirs)).toEqual([]);
    const { body } = await count(acme, 'battery=Low');
    expect((await plan(globex, body.data.id, gus)).status).toBe(404);
    expect((await provision(globex, body.data.id, gus)).status).toBe(404);
  });

  it('refuses bad input with 400s', async () => {
    const { body } = await count(acme, 'battery=High');
    expect((await plan(acme, body.data.id, ann, { firmware_id: 'x' })).status).toBe(400);
    expect((await provision(acme, 'not-a-uuid')).status).toBe(400);
  });
});
