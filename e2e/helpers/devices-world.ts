import type { Page } from 'playwright-core';
import { devices } from '../../apps/server/src/db/schema.ts';
import { ADMIN, startHarness, type Harness } from './browser.ts';

/**
 * The device screens' world, shared by the device, alert, rollout and history files: three
 * entities (acme, globex, initech), acme's admin and operator, initech's admin, and acme's group
 * hall_a. `world.h` is the file's harness, set by startWorld. On the worker's shared server each
 * file's entities and accounts carry its own prefix (`world.acme` is then `fh_acme`, BOSS's name
 * `fh_boss`), and globex's seeded devices its own 4 hex digits: a file reads the names from here.
 */
export const world = {
  h: undefined as unknown as Harness,
  root: '',
  acme: 'acme',
  globex: 'globex',
  initech: 'initech',
  /** The first 4 hex digits of globex's 45 seeded devices (seedGlobex). */
  globexHex: 'bbbb',
};
export const api = (method: string, path: string, body?: unknown) =>
  world.h.server.request(method, `/api/v1/${path}`, { token: world.root, body });

/** The world's accounts; startWorld sets their names (a shared server's file prefixes them). */
export const BOSS = { name: 'boss', password: 'password-1' };
export const WATCHER = { name: 'watcher', password: 'password-1' };
export const CHIEF = { name: 'chief', password: 'password-1' };
export const MINUTE = 60_000;

/** Device ids: 12 lower-case hex digits, `prefix` (4 hex digits) then a counter. */
export const id = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(8, '0')}`;

/** Rows straight into the database: fast, and with the reported fields the API does not set. */
export async function seed(entity: string, prefix: string, count: number, shape: (i: number) => object = () => ({})) {
  const now = Date.now();
  await world.h.server.app.db.insert(devices).values(
    Array.from({ length: count }, (_, i) => ({
      name: id(prefix, i),
      entity,
      description: `Seeded ${i}`,
      mqtt_secret_hash: 'not-a-real-hash',
      created_at: new Date(now - i * MINUTE),
      updated_at: new Date(now - i * 1000),
      ...shape(i),
    })),
  );
}

let globex: Promise<void> | undefined;

/**
 * Globex's 45 devices in every state, battery level and age the landlord's filters tell apart;
 * seeded once per file however many tests ask for them.
 */
export function seedGlobex(): Promise<void> {
  const states = ['ALLOCATED', 'ERROR', 'WAITING', 'DFU', null];
  return (globex ??= seed(world.globex, world.globexHex, 45, (i) => ({
    state_current: states[i % 5],
    battery: [90, 60, 20][i % 3],
    is_charging: i % 4 === 0,
    fw_version: i % 2 ? '1.4.0' : '1.5.2',
    updated_at: new Date(Date.now() - (i % 9 === 0 ? 45 * MINUTE : i * 1000)),
  })));
}

/**
 * Starts the harness and makes the entities, accounts and group every device file uses. With
 * `shared`, on the worker's shared server (startHarness): the names get `shared.prefix` and
 * globex's devices `shared.hex`, both unique to the file, which then reads only its own rows.
 */
export async function startWorld(opts: { shared?: { prefix: string; hex: string } } = {}): Promise<void> {
  // The e2e project shares a worker's modules between files (isolate: false): this file's world
  // is a new one, so its globex has not been seeded yet, and its names are its own.
  globex = undefined;
  const named = (name: string) => (opts.shared ? `${opts.shared.prefix}_${name}` : name);
  Object.assign(world, {
    acme: named('acme'),
    globex: named('globex'),
    initech: named('initech'),
    globexHex: opts.shared?.hex ?? 'bbbb',
  });
  BOSS.name = named('boss');
  WATCHER.name = named('watcher');
  CHIEF.name = named('chief');
  const h = (world.h = await startHarness({ shared: Boolean(opts.shared) }));
  world.root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  for (const name of [world.acme, world.globex, world.initech])
    await create('tenant', { name: { name, description: `${name} corp` } });
  const account = (name: string, subtype: string, entity: string) =>
    create('account', {
      name,
      email: `${name}@test.example`,
      password: 'password-1',
      subtype,
      entity,
      access: ['all'],
    });
  await account(BOSS.name, 'admin', world.acme);
  await account(WATCHER.name, 'operator', world.acme);
  await account(CHIEF.name, 'admin', world.initech);
  await create(`tenant/${world.acme}/dispenser`, { name: 'hall_a' });
}

/** A POST that must make what it names: a clash with another file's name fails the file's set-up here. */
async function create(path: string, document: object) {
  const made = await api('POST', path, { document });
  if (made.status !== 201) throw new Error(`POST ${path}: ${made.status} ${made.text}`);
}

export const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
// A label's text includes the required mark ' *' of required fields.
export const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
export const rows = (page: Page) => page.locator('table[aria-label="Devices"] tbody tr');
export const rowOf = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });
/** Console errors other than the failed requests a test provokes on purpose (and their log lines). */
export const unexpected = (errors: string[]) =>
  errors.filter(
    (e) => !/Failed to load resource: the server responded with a status of (404|409)|not created|not saved/.test(e),
  );

export async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

export function csvFile(text: string, name = 'devices.csv') {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(text) };
}
