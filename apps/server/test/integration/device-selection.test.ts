// "Select all matching" (issue 27): the dry run fixes the set, the action touches exactly it (a
// device registered after the count is left alone), one audit entry, and another entity's devices
// are never counted or acted on, whatever the filter says.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { entriesOf } from '../helpers/audit.ts';
import {
  s,
  root,
  acme,
  globex,
  ann,
  gus,
  sel,
  addDevices,
  count,
  progress,
  done,
  useSelectionWorld,
  memberEntities,
} from '../helpers/selection-world.ts';

let low: string[] = [];
let high: string[] = [];
let theirs: string[] = [];

useSelectionWorld({ shared: true });

beforeAll(async () => {
  low = await addDevices(acme, 3, { battery: 10, manufacturing_type: 'CC2', group: null });
  high = await addDevices(acme, 2, { battery: 90 });
  theirs = await addDevices(globex, 4, { battery: 10, manufacturing_type: 'CC2' });
});

describe('select all matching', () => {
  it('a command goes to exactly the dry run’s devices, once, with one audit entry', async () => {
    const dry = await count(acme, 'battery=Low');
    expect(dry.status).toBe(201);
    expect(dry.body.data).toMatchObject({ total: 3, state: 'counted', action: null });
    const id = dry.body.data.id;
    const [late] = await addDevices(acme, 1, { battery: 5 });

    const sent = await s.request('POST', `${sel(acme)}/${id}/command`, {
      token: ann,
      body: { payload: { type: 'refresh' } },
    });
    expect(sent.status).toBe(202);
    const end = await done(acme, id);
    expect(end).toMatchObject({ total: 3, done: 3, action: 'command' });
    // Asleep (never connected): every command is held until its device wakes.
    expect(end.counts).toMatchObject({ queued: 3, sent: 0 });

    const rows = rowsOf<{ device: string }>(
      await s.app.db.execute(sql`select device from commands where id = ${id}::uuid order by device`),
    );
    expect(rows.map((r) => r.device)).toEqual([...low].sort());
    expect(rows.map((r) => r.device)).not.toContain(late);

    const entries = (await entriesOf(s, 'command.send')).filter((e) => e.details?.selection === id);
    expect(entries).toHaveLength(1);
    expect(entries[0].details).toMatchObject({ count: 3, names: [...low].sort(), names_capped: false });

    // The set is acted on once: a second action asks for a new count.
    const again = await s.request('POST', `${sel(acme)}/${id}/command`, {
      token: ann,
      body: { payload: { type: 'refresh' } },
    });
    expect(again.status).toBe(409);
  });

  it('never counts or acts on another entity’s devices, whatever the filter', async () => {
    const filters = [
      'battery=Low',
      `entity=${globex}`,
      'type=CC2',
      `search=${theirs[0]!.slice(0, 6)}`,
      'seen=never',
      'site=s1&kiosk=k1',
    ];
    for (const q of filters) {
      const { body } = await count(acme, q);
      expect(
        (await memberEntities(body.data.id)).every((e) => e === acme),
        q,
      ).toBe(true);
    }
    // Another entity's account reaches neither acme's path nor acme's selection through its own.
    const { body } = await count(acme, 'battery=Low');
    expect((await count(acme, 'battery=Low', gus)).status).toBe(404);
    expect((await progress(globex, body.data.id, gus)).status).toBe(404);
    const act = await s.request('POST', `${sel(globex)}/${body.data.id}/delete`, { token: gus });
    expect(act.status).toBe(404);
    expect((await s.request('GET', `/api/v1/tenant/${acme}/device?limit=100`, { token: ann })).body.total).toBe(
      low.length + high.length + 1,
    );
  });

  it('deletes exactly the set in batches, one device.bulk_delete entry; the landlord’s set spans entities', async () => {
    const dry = await count(null, `type=CC2&entity=${globex}`, root);
    expect(dry.body.data.total).toBe(theirs.length);
    const res = await s.request('POST', `${sel(null)}/${dry.body.data.id}/delete`, { token: root });
    expect(res.status).toBe(202);
    await done(null, dry.body.data.id, root);
    const left = await s.request('GET', `/api/v1/tenant/${globex}/device?limit=100`, { token: root });
    expect(left.body.total).toBe(0);
    expect((await s.request('GET', `/api/v1/tenant/${acme}/device?limit=100`, { token: ann })).body.total).toBe(
      low.length + high.length + 1,
    );
    const entries = (await entriesOf(s, 'device.bulk_delete')).filter((e) => e.details?.selection === dry.body.data.id);
    expect(entries).toHaveLength(1);
    expect(entries[0].details.count).toBe(theirs.length);
  });

  it('refuses bad input with 400s', async () => {
    expect((await count(acme, 'battery=Empty')).status).toBe(400);
    expect((await progress(acme, 'not-a-uuid')).status).toBe(400);
    const { body } = await count(acme, 'battery=High');
    const dfu = await s.request('POST', `${sel(acme)}/${body.data.id}/command`, {
      token: ann,
      body: { payload: { type: 'dfu', url: 'https://x.test/f', version: '1', sha256: 'a'.repeat(64), size: 1 } },
    });
    expect([400]).toContain(dfu.status);
  });
});
