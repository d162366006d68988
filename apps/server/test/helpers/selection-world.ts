import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { devices } from '../../src/db/schema.ts';
import { eventually, randomDeviceId, startWithTwoEntities } from './devices.ts';
import type { TestServer } from './server.ts';
import { createAccount } from './session.ts';

/**
 * The world of the select-all-matching test files (integration/*selection*.test.ts): a server
 * with two entities and an admin of each (ann of ACME, gus of GLOBEX). The bindings are live:
 * they hold the server once `useSelectionWorld()`'s beforeAll has run, so call it before the
 * file's own beforeAll. With `shared`, on the worker's server (helpers/shared-server.ts).
 */
export let s: TestServer;
export let root = '';
export let acme = '';
export let globex = '';
export let ann = '';
export let gus = '';

/** Last heard 30 minutes ago: unresponsive by the spec's 20 minutes. */
export const quiet = new Date(Date.now() - 30 * 60_000);

export function useSelectionWorld(opts: { shared?: boolean } = {}): void {
  beforeAll(async () => {
    ({ s, root, acme, globex } = await startWithTwoEntities({}, opts));
    ann = (await createAccount(s, root, { name: `ann_${acme}`, entity: acme, subtype: 'admin' })).access_token;
    gus = (await createAccount(s, root, { name: `gus_${globex}`, entity: globex, subtype: 'admin' })).access_token;
  });
  afterAll(() => s?.close());
}

/** The selections' path: an entity's, or the landlord's across entities (`null`). */
export const sel = (entity: string | null) =>
  entity ? `/api/v1/tenant/${entity}/device-selection` : '/api/v1/device-selection';

/** Inserts `n` devices of `entity` with the columns `v` says; answers their names. */
export async function addDevices(entity: string, n: number, v: Partial<typeof devices.$inferInsert>) {
  const names = Array.from({ length: n }, randomDeviceId);
  await s.app.db.insert(devices).values(names.map((name) => ({ name, entity, mqtt_secret_hash: 'x', ...v })));
  return names;
}

/** The dry run: counts (and fixes) the devices the device list's query matches. */
export const count = (entity: string | null, query: string, token = ann) =>
  s.request('POST', sel(entity), { token, body: { query } });

/** The selection's progress. */
export const progress = (entity: string | null, id: string, token = ann) =>
  s.request('GET', `${sel(entity)}/${id}`, { token });

/** Waits for the selection's action to be done; answers its last progress. */
export const done = (entity: string | null, id: string, token = ann) =>
  eventually(async () => {
    const { body } = await progress(entity, id, token);
    if (body.data.state !== 'done') throw new Error(`still ${body.data.state}`);
    return body.data;
  }, 20_000);

/** The entities of the devices a selection holds, one a member. */
export const memberEntities = async (selection: string) =>
  rowsOf<{ entity: string }>(
    await s.app.db.execute(sql`select entity from device_selection_members where selection = ${selection}::uuid`),
  ).map((m) => m.entity);
