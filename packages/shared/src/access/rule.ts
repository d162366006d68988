import type { Subtype } from '../constants.ts';

/**
 * THE rule of who may do what (core §6, fleet §6, docs/decisions): for each area of the console
 * and the API, whether an account may change it, only read it, or not read it at all. The server's
 * policies refuse (403) what it says no to; the console offers only what it says yes to; the
 * access table in docs/access.md is generated from it (`npm run docs:access`). Entity scoping
 * (another entity's objects answer 404) is the server's, not this rule's.
 */

/** What an account may do in an area: change it (and read it), only read it, or neither. */
export type Access = 'change' | 'read' | 'none';

/** Who asks: the claims of the access token (or the signed-in account). */
export interface Actor {
  subtype: Subtype | string;
  permissions: readonly string[];
}

export const AREAS = [
  'landlord',
  'accounts',
  'settings',
  'entityConfig',
  'devices',
  'commands',
  'allocation',
  'sites',
  'groups',
  'dataviews',
  'files',
  'beacons',
  'audit',
] as const;
export type Area = (typeof AREAS)[number];

/** Subtypes that change the device registry, beacon configurations, files and firmware. */
export const REGISTRY_WRITERS: readonly Subtype[] = ['sadmin', 'admin', 'developer'];
/** Subtypes an entity admin with all access creates and manages (admins are the landlord's). */
export const ENTITY_MANAGED_SUBTYPES: readonly Subtype[] = ['developer', 'operator', 'infra'];

export const isSuperadmin = (actor: Actor) => actor.subtype === 'sadmin';
const holds = (actor: Actor, ...values: string[]) => actor.permissions.some((p) => values.includes(p));
const everything = (actor: Actor) => isSuperadmin(actor) || holds(actor, 'all');
const entityManager = (actor: Actor) => isSuperadmin(actor) || (actor.subtype === 'admin' && holds(actor, 'all'));

/** Site_* decides sites and kiosks, Group_* groups; the landlord and `all` everything (core §6). */
function org(actor: Actor, area: 'Site' | 'Group'): Access {
  if (everything(actor) || holds(actor, `${area}_all`)) return 'change';
  return holds(actor, `${area}_read`) ? 'read' : 'none';
}

interface AreaRule {
  /** The area's name in the access table and the console's panels. */
  label: string;
  /** What the area holds: the API's objects and the console's screens. */
  holds: string;
  decide(actor: Actor): Access;
  /** The area in a sentence: "You do not have access to {noun}." */
  noun: string;
  /** What the console tells an account that may not read (or change) the area. */
  ask: string;
}

const registry = (actor: Actor): Access => (REGISTRY_WRITERS.includes(actor.subtype as Subtype) ? 'change' : 'read');

export const AREA_RULES: Record<Area, AreaRule> = {
  landlord: {
    label: 'Landlord screens',
    holds: 'entities, every account, device and dataview across entities',
    decide: (a) => (isSuperadmin(a) ? 'change' : 'none'),
    noun: 'entities across the fleet',
    ask: 'These screens are for superadmins.',
  },
  accounts: {
    label: 'Accounts',
    holds: "the entity's accounts (admins' rows are the landlord's)",
    decide: (a) => (entityManager(a) ? 'change' : 'read'),
    noun: 'changing accounts',
    ask: 'Ask an entity admin with All Access.',
  },
  settings: {
    label: 'Own settings',
    holds: "one's own e-mail, password and permanent tokens",
    decide: () => 'change',
    noun: 'your settings',
    ask: 'Every account may.',
  },
  entityConfig: {
    label: 'Entity config',
    holds: "the active entity's configuration",
    decide: (a) => (entityManager(a) ? 'change' : 'read'),
    noun: 'changing the entity config',
    ask: 'Ask an entity admin with All Access.',
  },
  devices: {
    label: 'Devices',
    holds: 'the device registry: add, bulk add, edit, delete, new MQTT credentials',
    decide: registry,
    noun: 'changing devices',
    ask: 'Ask an administrator or developer.',
  },
  commands: {
    label: 'Device commands',
    holds: 'refresh, vibrate, reboot, firmware update and provisioning',
    decide: () => 'change',
    noun: 'device commands',
    ask: 'Every account may.',
  },
  allocation: {
    label: 'Allocate and Return Device',
    holds: 'moving a device to a visitor and back into a dispenser (a group change)',
    decide: (a) => (org(a, 'Group') === 'change' ? 'change' : 'none'),
    noun: 'allocating and returning devices',
    ask: 'Ask an administrator for Group_all or All Access.',
  },
  sites: {
    label: 'Sites and kiosks',
    holds: 'sites and the kiosks standing at them',
    decide: (a) => org(a, 'Site'),
    noun: 'sites and kiosks',
    ask: 'Ask an administrator for Site_read (to look) or Site_all (to change).',
  },
  groups: {
    label: 'Groups',
    holds: 'groups (dispensers) and which devices they hold',
    decide: (a) => org(a, 'Group'),
    noun: 'groups',
    ask: 'Ask an administrator for Group_read (to look) or Group_all (to change).',
  },
  dataviews: {
    label: 'Dataviews',
    holds: 'dataviews and the designer; without Dataview_read only those owned or authorised',
    decide: (a) => (isSuperadmin(a) || (a.subtype === 'admin' && holds(a, 'all', 'Dataview_all')) ? 'change' : 'read'),
    noun: 'changing dataviews',
    ask: 'Ask an admin with Dataview_all or All Access.',
  },
  files: {
    label: 'Files and firmware',
    holds: 'uploads of the entity, its sites and groups',
    decide: registry,
    noun: 'changing files and firmware',
    ask: 'Ask an administrator or developer.',
  },
  beacons: {
    label: 'Beacons',
    holds: 'the beacon monitor and beacon configurations',
    decide: registry,
    noun: 'changing beacon configurations',
    ask: 'Ask an administrator or developer.',
  },
  audit: {
    label: 'Audit log',
    holds: "the entity's audit log and its export (issue 26); nobody changes an entry",
    decide: (a) => (entityManager(a) ? 'read' : 'none'),
    noun: 'the audit log',
    ask: 'Ask an entity admin with All Access.',
  },
};

/** What `actor` may do in `area`; no actor (signed out) may do nothing. */
export function accessTo(actor: Actor | null | undefined, area: Area): Access {
  return actor ? AREA_RULES[area].decide(actor) : 'none';
}

export const mayRead = (actor: Actor | null | undefined, area: Area) => accessTo(actor, area) !== 'none';
export const mayChange = (actor: Actor | null | undefined, area: Area) => accessTo(actor, area) === 'change';

/** Whether the reader of the dataviews reads all of the entity's, not only its own and authorised ones. */
export const mayReadAllDataviews = (actor: Actor) => everything(actor) || holds(actor, 'Dataview_all', 'Dataview_read');

/**
 * An account row's edit and delete (core §6): the landlord any row; an entity admin with all
 * access only developer, operator and infra rows. Nobody deletes their own.
 */
export function mayManageAccount(actor: Actor, target: { subtype: Subtype | string }): boolean {
  if (isSuperadmin(actor)) return true;
  return mayChange(actor, 'accounts') && ENTITY_MANAGED_SUBTYPES.includes(target.subtype as Subtype);
}
