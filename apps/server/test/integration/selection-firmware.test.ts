// A firmware update on everything a filter matches (issue 27): the dry run breaks the count down
// (updated, already on that version, unresponsive, of another type), the update reaches exactly
// the `update` devices of the counted set through the DFU payload, one audit entry, and another
// entity's devices and firmware are never counted or touched.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { firmware, groups, sites } from '../../src/db/schema.ts';
import { entriesOf } from '../helpers/audit.ts';
import { eventually } from '../helpers/devices.ts';
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
  quiet,
  useSelectionWorld,
  memberEntities,
} from '../helpers/selection-world.ts';

async function addFirmware(
  entity: string,
  version: string,
  device_type: 'CC1' | 'CC2',
  at: { level: 'entity' | 'site' | 'group'; target: string } = { level: 'entity', target: entity },
) {
  const id = randomUUID();
  await s.app.db.insert(firmware).values({
    id,
    entity,
    ...at,
    filename: 'fw.bin',
    size_bytes: 4,
    sha256: 'a'.repeat(64),
    blob_key: randomUUID(),
    version,
    device_type,
  });
  return id;
}
const plan = (entity: string | null, id: string, body: unknown, token = ann) =>
  s.request('POST', `${sel(entity)}/${id}/firmware/plan`, { token, body });
const update = (entity: string | null, id: string, body: unknown, token = ann) =>
  s.request('POST', `${sel(entity)}/${id}/firmware`, { token, body });
const commandsOf = async (id: string) =>
  rowsOf<{ device: string; type: string }>(
    await s.app.db.execute(sql`select device, type from commands where id = ${id}::uuid order by device`),
  );

let fresh: string[] = [];
let current: string[] = [];
let silent: string[] = [];
let cc1: string[] = [];
let theirs: string[] = [];
let fw = '';
let theirFw = '';

useSelectionWorld();

beforeAll(async () => {
  const low = { battery: 10 };
  fresh = await addDevices(acme, 3, { ...low, manufacturing_type: 'CC2', fw_version: '1.0.0' });
  current = await addDevices(acme, 2, { ...low, manufacturing_type: 'CC2', fw_version: '2.0.0' });
  silent = await addDevices(acme, 1, { ...low, manufacturing_type: 'CC2', fw_version: '1.0.0', updated_at: quiet });
  cc1 = await addDevices(acme, 2, { ...low, manufacturing_type: 'CC1', fw_version: '1.0.0' });
  await addDevices(acme, 2, { battery: 90, manufacturing_type: 'CC2', fw_version: '1.0.0' });
  theirs = await addDevices(globex, 4, { ...low, manufacturing_type: 'CC2', fw_version: '1.0.0' });
  fw = await addFirmware(acme, '2.0.0', 'CC2');
  theirFw = await addFirmware(globex, '3.0.0', 'CC2');
});

describe('firmware update on everything a filter matches', () => {
  it('the dry run breaks the count down; exactly the devices to update get it, once, one audit entry', async () => {
    const dry = await count(acme, 'battery=Low');
    expect(dry.body.data.total).toBe(8);
    const id = dry.body.data.id;
    const p = await plan(acme, id, { firmware_id: fw });
    expect(p.status).toBe(200);
    expect(p.body.data).toMatchObject({
      total: 8,
      update: 3,
      current: 2,
      unresponsive: 1,
      other_type: 2,
      gone: 0,
      version: '2.0.0',
    });
    const [late] = await addDevices(acme, 1, { battery: 5, manufacturing_type: 'CC2', fw_version: '1.0.0' });

    const res = await update(acme, id, { firmware_id: fw });
    expect(res.status).toBe(202);
    expect(res.body.data.plan.update).toBe(3);
    const end = await eventually(async () => {
      const { body } = await s.request('GET', `${sel(acme)}/${id}`, { token: ann });
      if (body.data.state !== 'done') throw new Error(`still ${body.data.state}`);
      return body.data;
    }, 20_000);
    expect(end).toMatchObject({ action: 'firmware', total: 8, done: 8 });
    expect(end.counts).toMatchObject({ queued: 3 });

    const rows = await commandsOf(id);
    expect(rows.map((r) => r.device)).toEqual([...fresh].sort());
    expect(rows.every((r) => r.type === 'dfu')).toBe(true);
    for (const skipped of [...current, ...silent, ...cc1, late])
      expect(rows.map((r) => r.device)).not.toContain(skipped);

    const entries = (await entriesOf(s, 'firmware.send')).filter((e) => e.details?.selection === id);
    expect(entries).toHaveLength(1);
    expect(entries[0].details).toMatchObject({ count: 8, plan: { update: 3, current: 2 } });
    expect((await update(acme, id, { firmware_id: fw })).status).toBe(409);
  });

  it('never counts, plans or sends to another entity’s devices, nor uses another entity’s firmware', async () => {
    for (const q of ['battery=Low', `entity=${globex}`, 'type=CC2', `search=${theirs[0]!.slice(0, 6)}`]) {
      const { body } = await count(acme, q);
      const p = await plan(acme, body.data.id, { firmware_id: fw });
      expect(p.body.data.total, q).toBe(body.data.total);
      expect(
        (await memberEntities(body.data.id)).every((e) => e === acme),
        q,
      ).toBe(true);
    }
    const { body } = await count(acme, 'battery=Low');
    expect((await plan(acme, body.data.id, { firmware_id: theirFw })).status).toBe(404);
    expect((await update(acme, body.data.id, { firmware_id: theirFw })).status).toBe(404);
    expect((await update(globex, body.data.id, { firmware_id: theirFw }, gus)).status).toBe(404);
    // The landlord's set spans entities, but a firmware goes only to its own entity's devices.
    const all = await count(null, 'battery=Low&type=CC2', root);
    const lp = await plan(null, all.body.data.id, { firmware_id: theirFw }, root);
    expect(lp.body.data).toMatchObject({ update: theirs.length, other_type: all.body.data.total - theirs.length });
    const sent = await update(null, all.body.data.id, { firmware_id: theirFw }, root);
    expect(sent.status).toBe(202);
    const rows = await eventually(async () => {
      const r = await commandsOf(all.body.data.id);
      if (r.length < theirs.length) throw new Error('not yet');
      return r;
    }, 20_000);
    expect(rows.map((r) => r.device)).toEqual([...theirs].sort());
  });

  it('site- and group-level firmware: the dry run counts only the devices of that site or group', async () => {
    const [site] = await s.app.db
      .insert(sites)
      .values({ entity: acme, name: 'North', latitude: 0, longitude: 0 })
      .returning();
    const placed = await s.app.db
      .insert(groups)
      .values([
        { entity: acme, name: 'gA', site: 'North' },
        { entity: acme, name: 'gB', site: 'North' },
        { entity: acme, name: 'gC' },
      ])
      .returning();
    const v1 = { battery: 10, manufacturing_type: 'CC2' as const, fw_version: '1.0.0' };
    const inNorth = [
      ...(await addDevices(acme, 2, { ...v1, group: 'gA' })),
      ...(await addDevices(acme, 1, { ...v1, group: 'gB' })),
    ];
    const inC = await addDevices(acme, 2, { ...v1, group: 'gC' });
    await addDevices(acme, 1, { ...v1, manufacturing_type: 'CC1', group: 'gA' });
    const siteFw = await addFirmware(acme, '4.0.0', 'CC2', { level: 'site', target: site!.id });
    const groupFw = await addFirmware(acme, '4.1.0', 'CC2', { level: 'group', target: placed[2]!.id });

    const { body } = await count(acme, 'group=gA&group=gB&group=gC');
    expect(body.data.total).toBe(6);
    const bySite = await plan(acme, body.data.id, { firmware_id: siteFw });
    expect(bySite.body.data).toMatchObject({ update: 3, other_place: 2, other_type: 1, level: 'site', place: 'North' });
    const byGroup = await plan(acme, body.data.id, { firmware_id: groupFw });
    expect(byGroup.body.data).toMatchObject({ update: 2, other_place: 3, other_type: 1, level: 'group', place: 'gC' });
    expect((await update(acme, body.data.id, { firmware_id: groupFw })).status).toBe(202);
    const rows = await eventually(async () => {
      const r = await commandsOf(body.data.id);
      if (r.length < inC.length) throw new Error('not yet');
      return r;
    }, 20_000);
    expect(rows.map((r) => r.device)).toEqual([...inC].sort());
    expect(inNorth.length).toBe(3);

    // The choices: every level of the entity's firmware, by place, and its groups; never another entity's.
    const choices = await s.request('GET', `${sel(acme)}/${body.data.id}/choices`, { token: ann });
    expect(choices.status).toBe(200);
    const fwIds = choices.body.data.firmware.map((f: { id: string }) => f.id);
    expect(fwIds).toEqual(expect.arrayContaining([fw, siteFw, groupFw]));
    expect(fwIds).not.toContain(theirFw);
    expect(choices.body.data.firmware.find((f: { id: string }) => f.id === siteFw)).toMatchObject({
      level: 'site',
      place: 'North',
    });
    expect(choices.body.data.groups.map((g: { name: string }) => g.name)).toEqual(['gA', 'gB', 'gC']);
    expect((await s.request('GET', `${sel(globex)}/${body.data.id}/choices`, { token: gus })).status).toBe(404);
    // The landlord's choices come from the entities of its set's devices.
    const all = await count(null, 'battery=Low', root);
    const landlord = await s.request('GET', `${sel(null)}/${all.body.data.id}/choices`, { token: root });
    expect(landlord.body.data.firmware.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining([fw, theirFw]));
  });

  it('refuses bad input with 400s', async () => {
    const { body } = await count(acme, 'battery=High');
    expect((await plan(acme, body.data.id, {})).status).toBe(400);
    expect((await plan(acme, body.data.id, { firmware_id: 'nope' })).status).toBe(400);
    expect((await update(acme, body.data.id, { firmware_id: fw, expires_in_s: -1 })).status).toBe(400);
    expect((await plan(acme, 'not-a-uuid', { firmware_id: fw })).status).toBe(400);
  });
});
