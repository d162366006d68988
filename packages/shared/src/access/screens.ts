import { accessTo, type Access, type Actor, type Area } from './rule.ts';

/**
 * Every route of the console (core §2, fleet §2, plus the kiosk screens reached from Sites), the
 * area of the rule it belongs to, and what it needs: `read` to look (a screen of a role that may
 * not change the area is read-only), or `change` (a create screen, Allocate, Return Device).
 */
export interface Screen {
  path: string;
  area: Area;
  needs: 'read' | 'change';
  /** The landlord's own screen (the others are an entity user's; /settings is both's). */
  landlord?: boolean;
}

export const SCREENS: readonly Screen[] = [
  { path: '/entity', area: 'landlord', needs: 'read', landlord: true },
  { path: '/entity/new', area: 'landlord', needs: 'change', landlord: true },
  { path: '/entity/{entityName}', area: 'landlord', needs: 'read', landlord: true },
  { path: '/saccounts', area: 'landlord', needs: 'read', landlord: true },
  { path: '/saccounts/new', area: 'landlord', needs: 'change', landlord: true },
  { path: '/saccounts/{name}', area: 'landlord', needs: 'read', landlord: true },
  { path: '/sdevices', area: 'landlord', needs: 'read', landlord: true },
  { path: '/sdevices/new', area: 'landlord', needs: 'change', landlord: true },
  { path: '/sdevices/{name}', area: 'landlord', needs: 'read', landlord: true },
  { path: '/sDataview', area: 'landlord', needs: 'read', landlord: true },
  { path: '/saudit', area: 'landlord', needs: 'read', landlord: true },
  { path: '/sfleet', area: 'landlord', needs: 'read', landlord: true },
  { path: '/settings', area: 'settings', needs: 'read' },
  { path: '/entity/config', area: 'entityConfig', needs: 'read' },
  { path: '/account', area: 'accounts', needs: 'read' },
  { path: '/account/new', area: 'accounts', needs: 'change' },
  { path: '/account/{name}', area: 'accounts', needs: 'read' },
  { path: '/dataview', area: 'dataviews', needs: 'read' },
  { path: '/dataview/new', area: 'dataviews', needs: 'change' },
  { path: '/dataview/{name}', area: 'dataviews', needs: 'read' },
  { path: '/appbuilder/{name}', area: 'dataviews', needs: 'read' },
  { path: '/site', area: 'sites', needs: 'read' },
  { path: '/site/new', area: 'sites', needs: 'change' },
  { path: '/site/{name}', area: 'sites', needs: 'read' },
  { path: '/kiosk', area: 'sites', needs: 'read' },
  { path: '/kiosk/new', area: 'sites', needs: 'change' },
  { path: '/kiosk/{name}', area: 'sites', needs: 'read' },
  { path: '/dispenser', area: 'groups', needs: 'read' },
  { path: '/dispenser/new', area: 'groups', needs: 'change' },
  { path: '/dispenser/{name}', area: 'groups', needs: 'read' },
  { path: '/device', area: 'devices', needs: 'read' },
  { path: '/device/new', area: 'devices', needs: 'change' },
  { path: '/devices/new-multiple', area: 'devices', needs: 'change' },
  { path: '/device/{name}', area: 'devices', needs: 'read' },
  { path: '/device/{name}/allocate', area: 'allocation', needs: 'change' },
  { path: '/device/{name}/deploy', area: 'allocation', needs: 'change' },
  { path: '/beacon-demo', area: 'beacons', needs: 'read' },
  { path: '/audit', area: 'audit', needs: 'read' },
  { path: '/fleet', area: 'devices', needs: 'read' },
];

/**
 * What a screen is to `actor`: `change` (usable), `read` (read-only), or `none` (not readable,
 * or a change screen of a role that may only read: the console says so in words instead).
 */
export function screenAccess(actor: Actor | null | undefined, screen: Pick<Screen, 'area' | 'needs'>): Access {
  const access = accessTo(actor, screen.area);
  if (screen.needs === 'change' && access !== 'change') return 'none';
  return access;
}
