// The fleet: sites, kiosks, groups, devices, commands, allocations, files, firmware and dataviews.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CommandType } from '@fleet/shared/protocol';
import type { CommandState } from '@fleet/shared/schemas/command';
import { timestamps } from './columns.ts';
import { accounts, entities } from './tenants.ts';

/** The four JSON infos sites, groups and the entity config carry (fleet §3). */
const infos = {
  networkinfo: jsonb('networkinfo'),
  globalinfo: jsonb('globalinfo'),
  allocinfo: jsonb('allocinfo'),
  unallocinfo: jsonb('unallocinfo'),
};

/** The columns sites, kiosks and groups share: a stable id and a name unique in its entity. */
const namedInEntity = {
  id: uuid('id').primaryKey().defaultRandom(),
  entity: text('entity')
    .notNull()
    .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
};

/**
 * Sites, kiosks and groups: `id` is a stable handle (file and firmware uploads name it); the
 * name, unique in its entity, is what people and the API use. References between them and from
 * devices are (entity, name) foreign keys that follow renames (ON UPDATE CASCADE) and refuse a
 * delete that would leave them dangling (NO ACTION). docs/decisions.md.
 */
export const sites = pgTable(
  'sites',
  {
    ...namedInEntity,
    street: text('street').notNull().default(''),
    number: text('number').notNull().default(''),
    postalcode: text('postalcode').notNull().default(''),
    city: text('city').notNull().default(''),
    region: text('region').notNull().default(''),
    country: text('country').notNull().default(''),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    ...infos,
    ...timestamps,
  },
  (t) => [unique('sites_entity_name_key').on(t.entity, t.name)],
);

export const kiosks = pgTable(
  'kiosks',
  {
    ...namedInEntity,
    site: text('site'),
    floor: integer('floor'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    state_current: text('state_current'),
    ...timestamps,
  },
  (t) => [
    unique('kiosks_entity_name_key').on(t.entity, t.name),
    foreignKey({
      name: 'kiosks_site_fk',
      columns: [t.entity, t.site],
      foreignColumns: [sites.entity, sites.name],
    }).onUpdate('cascade'),
    index('kiosks_entity_site_idx').on(t.entity, t.site),
  ],
);

/** Groups, called dispensers in the API: a kiosk's slot holding up to `capacity` devices (null: no limit). */
export const groups = pgTable(
  'groups',
  {
    ...namedInEntity,
    capacity: integer('capacity'),
    kiosk: text('kiosk'),
    site: text('site'),
    floor: integer('floor'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    configuration: jsonb('configuration'),
    ...infos,
    x509_certificate: text('x509_certificate'),
    state_current: text('state_current'),
    ...timestamps,
  },
  (t) => [
    unique('groups_entity_name_key').on(t.entity, t.name),
    foreignKey({
      name: 'groups_site_fk',
      columns: [t.entity, t.site],
      foreignColumns: [sites.entity, sites.name],
    }).onUpdate('cascade'),
    foreignKey({
      name: 'groups_kiosk_fk',
      columns: [t.entity, t.kiosk],
      foreignColumns: [kiosks.entity, kiosks.name],
    }).onUpdate('cascade'),
    index('groups_entity_site_idx').on(t.entity, t.site),
    index('groups_entity_kiosk_idx').on(t.entity, t.kiosk),
  ],
);

/**
 * Devices. The id (`name`, 12 hex digits) is the hardware's identity and its MQTT username, so it
 * is unique across entities. `updated_at` is the device's last sign of life, not an edit time.
 */
export const devices = pgTable(
  'devices',
  {
    name: text('name').primaryKey(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    description: text('description').notNull().default(''),
    group: text('group'),
    manufacturing_type: text('manufacturing_type').$type<'CC1' | 'CC2'>().notNull().default('CC1'),
    version_id: text('version_id'),
    mac_1: text('mac_1'),
    mac_2: text('mac_2'),
    x509_certificate: text('x509_certificate'),
    fw_version: text('fw_version'),
    state_current: text('state_current'),
    battery: smallint('battery'),
    is_charging: boolean('is_charging'),
    last_dispenser: text('last_dispenser'),
    current_provision: text('current_provision'),
    current_download: text('current_download'),
    mqtt_secret_hash: text('mqtt_secret_hash').notNull(),
    /** Connected to the broker now; commands to a device that is not are held until it wakes. */
    online: boolean('online').notNull().default(false),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The id tie-breaker follows the direction of its column, so both ends of a page are index order.
    index('devices_entity_created_idx').on(t.entity, t.created_at.desc(), t.name.desc()),
    index('devices_created_idx').on(t.created_at.desc(), t.name.desc()),
    index('devices_entity_updated_idx').on(t.entity, t.updated_at, t.name),
    index('devices_entity_state_idx').on(t.entity, t.state_current, t.created_at.desc()),
    index('devices_entity_fw_idx').on(t.entity, t.fw_version, t.created_at.desc()),
    index('devices_entity_battery_idx').on(t.entity, t.battery, t.created_at.desc()),
    // Every column of the list sorts with the id as tie-breaker (issue 27): a page is an index range.
    index('devices_entity_name_idx').on(t.entity, t.name),
    index('devices_entity_group_sort_idx').on(t.entity, t.group, t.name),
    index('devices_entity_state_sort_idx').on(t.entity, t.state_current, t.name),
    index('devices_entity_fw_sort_idx').on(t.entity, t.fw_version, t.name),
    index('devices_entity_battery_sort_idx').on(t.entity, t.battery, t.name),
    // The landlord's quiet-devices-first across entities.
    index('devices_updated_idx').on(t.updated_at, t.name),
    // The group a device is in and the one it last came from; both follow a group's rename.
    foreignKey({
      name: 'devices_group_fk',
      columns: [t.entity, t.group],
      foreignColumns: [groups.entity, groups.name],
    }).onUpdate('cascade'),
    foreignKey({
      name: 'devices_last_dispenser_fk',
      columns: [t.entity, t.last_dispenser],
      foreignColumns: [groups.entity, groups.name],
    }).onUpdate('cascade'),
    index('devices_entity_group_idx').on(t.entity, t.group, t.created_at.desc(), t.name.desc()),
    index('devices_entity_last_dispenser_idx')
      .on(t.entity, t.last_dispenser)
      .where(sql`last_dispenser is not null`),
    // The search's trigram indexes are on device_search (schema/device-search.ts, migration 0032).
  ],
);

export const COMMAND_TARGETS = ['device', 'devices', 'entity'] as const;

/**
 * Remote commands, one row per command and device, written before the command is published.
 * `id` is the id the device sees; an entity-wide command shares one id across its devices' rows.
 * `state` moves queued → sent → succeeded | failed | timed_out | expired (queued = held for a
 * sleeping device).
 */
export const commands = pgTable(
  'commands',
  {
    id: uuid('id').notNull(),
    device: text('device')
      .notNull()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    entity: text('entity').notNull(),
    type: text('type').$type<CommandType>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    target: text('target').$type<(typeof COMMAND_TARGETS)[number]>().notNull(),
    state: text('state').$type<CommandState>().notNull(),
    sent_by: text('sent_by').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    replied_at: timestamp('replied_at', { withTimezone: true }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    error: text('error'),
    latency_ms: integer('latency_ms'),
    /** Long work (firmware update): the device's last reported phase and percentage. */
    progress_phase: text('progress_phase'),
    progress: smallint('progress'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.device] }),
    index('commands_device_created_idx').on(t.device, t.created_at.desc()),
    // Held and unanswered commands: what a waking device is owed and what the sweeper ends.
    index('commands_open_idx')
      .on(t.state, t.device)
      .where(sql`state in ('queued', 'sent')`),
  ],
);

/**
 * Allocations of devices to visitors (fleet §3, §4), kept as history: a row is open while
 * `returned_at` is null, and at most one open row per device (allocations_open_device_key) is
 * what lets exactly one of two racing allocations win.
 */
export const allocations = pgTable(
  'allocations',
  {
    id: uuid('id').primaryKey(),
    device: text('device')
      .notNull()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    entity: text('entity').notNull(),
    kiosk: text('kiosk').notNull(),
    dispenser: text('dispenser').notNull(),
    visitor: text('visitor').notNull(),
    apps: jsonb('apps').$type<Record<string, unknown>>().notNull(),
    network: jsonb('network'),
    allocated_by: text('allocated_by').notNull(),
    allocated_at: timestamp('allocated_at', { withTimezone: true }).notNull().defaultNow(),
    returned_at: timestamp('returned_at', { withTimezone: true }),
    returned_by: text('returned_by'),
    returned_to: text('returned_to'),
    outcome: text('outcome').$type<'open' | 'returned' | 'refused'>().notNull().default('open'),
  },
  (t) => [
    uniqueIndex('allocations_open_device_key')
      .on(t.device)
      .where(sql`returned_at is null`),
    index('allocations_device_time_idx').on(t.device, t.allocated_at.desc()),
  ],
);

/** Columns every stored upload has: where it belongs, and its blob in the store. */
const uploaded = () => ({
  id: uuid('id').primaryKey(),
  entity: text('entity')
    .notNull()
    .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
  /** `entity`, `site` or `group`; `target` is that entity's, site's or group's name. */
  level: text('level').$type<'entity' | 'site' | 'group'>().notNull(),
  target: text('target').notNull(),
  /** The client's file name, for display only; never a path. */
  filename: text('filename').notNull(),
  size_bytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  /** The blob's key in the store (a random UUID). */
  blob_key: text('blob_key').notNull(),
});

/** Files for devices (fleet §3 File record), written only once their blob is complete. */
export const files = pgTable(
  'files',
  {
    ...uploaded(),
    file_device_path: text('file_device_path'),
    upload_date: timestamp('upload_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_target_idx').on(t.entity, t.level, t.target, t.upload_date.desc())],
);

/** Firmware images (fleet §3 Firmware record); one version per type and target. */
export const firmware = pgTable(
  'firmware',
  {
    ...uploaded(),
    version: text('version').notNull(),
    device_type: text('device_type').$type<'CC1' | 'CC2'>().notNull(),
    description: text('description').notNull().default(''),
    release_date: timestamp('release_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('firmware_version_uq').on(t.entity, t.level, t.target, t.device_type, t.version),
    index('firmware_pick_idx').on(t.entity, t.device_type, t.level, t.target, t.release_date.desc()),
  ],
);
/**
 * Dataviews: JSON-described views of an entity (fleet §3). The owner is an account name; when
 * that account is deleted the owner becomes null (docs/decisions.md). Content is format 1 JSON.
 */
export const dataviews = pgTable(
  'dataviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    version: text('version').notNull(),
    owner: text('owner').references(() => accounts.name, { onDelete: 'set null', onUpdate: 'cascade' }),
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('dataviews_entity_name_idx').on(t.entity, t.name),
    index('dataviews_owner_idx').on(t.owner),
    index('dataviews_version_idx').on(t.version),
  ],
);

/** A dataview's authorised accounts; a deleted or renamed account leaves or follows by cascade. */
export const dataviewAccounts = pgTable(
  'dataview_accounts',
  {
    dataview_id: uuid('dataview_id')
      .notNull()
      .references(() => dataviews.id, { onDelete: 'cascade' }),
    account: text('account')
      .notNull()
      .references(() => accounts.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.dataview_id, t.account] }), index('dataview_accounts_account_idx').on(t.account)],
);
