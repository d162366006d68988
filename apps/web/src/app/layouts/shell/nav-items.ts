import {
  IconActivityHeartbeat,
  IconBell,
  IconBuildingCommunity,
  IconChartDots3,
  IconDevices,
  IconHistory,
  IconMapPin,
  IconRocket,
  IconStack2,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { Area } from '@fleet/shared/access/rule';

export interface NavItem {
  label: string;
  to: string;
  icon: Icon;
  /** Other path prefixes that belong to this item (e.g. /devices/new-multiple under Devices). */
  also?: readonly string[];
  /** The area of the access rule it opens: shown only to accounts that may read it. */
  area: Area;
}

/** Landlord navigation (core §2): Entities, Accounts, Devices, Dataviews. */
export const LANDLORD_NAV: readonly NavItem[] = [
  { label: 'Entities', to: '/entity', icon: IconBuildingCommunity, area: 'landlord' },
  { label: 'Accounts', to: '/saccounts', icon: IconUsers, area: 'landlord' },
  { label: 'Devices', to: '/sdevices', icon: IconDevices, also: ['/devices'], area: 'landlord' },
  { label: 'Dataviews', to: '/sDataview', icon: IconChartDots3, also: ['/appbuilder'], area: 'landlord' },
  // Issue 26, after the spec's items (docs/decisions/2026-11-25-audit-and-history-placement.md).
  { label: 'Audit log', to: '/saudit', icon: IconHistory, area: 'landlord' },
  // Issue 27 (docs/decisions/2026-11-26-fleet-health.md).
  { label: 'Fleet health', to: '/sfleet', icon: IconActivityHeartbeat, area: 'landlord' },
  // Issue 29: every entity's alerts.
  { label: 'Alerts', to: '/salerts', icon: IconBell, area: 'landlord' },
];

/** Entity-level navigation (core §2): Accounts, Dataviews, Sites, Groups, Devices; each only to those who may read it. */
export const ENTITY_NAV: readonly NavItem[] = [
  { label: 'Accounts', to: '/account', icon: IconUsers, area: 'accounts' },
  { label: 'Dataviews', to: '/dataview', icon: IconChartDots3, also: ['/appbuilder'], area: 'dataviews' },
  { label: 'Sites', to: '/site', icon: IconMapPin, also: ['/kiosk'], area: 'sites' },
  { label: 'Groups', to: '/dispenser', icon: IconStack2, area: 'groups' },
  { label: 'Devices', to: '/device', icon: IconDevices, also: ['/devices'], area: 'devices' },
  // Issue 26, after the spec's items: only entity admins with all access may read it.
  { label: 'Audit log', to: '/audit', icon: IconHistory, area: 'audit' },
  // Issue 27: everyone who may read the devices (docs/decisions/2026-11-26-fleet-health.md).
  { label: 'Fleet health', to: '/fleet', icon: IconActivityHeartbeat, area: 'devices' },
  // Issue 29 (docs/decisions/2026-11-27-alerts.md).
  { label: 'Alerts', to: '/alerts', icon: IconBell, area: 'devices' },
  // Issue 28 (docs/decisions/2026-11-27-rollouts-console.md): everyone who may update firmware.
  { label: 'Rollouts', to: '/rollouts', icon: IconRocket, area: 'commands' },
];

const under = (pathname: string, prefix: string) => {
  const path = pathname.toLowerCase();
  const base = prefix.toLowerCase();
  return path === base || path.startsWith(`${base}/`);
};

/** Whether `item` is the current area; matching is case-insensitive like the router's. */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return [item.to, ...(item.also ?? [])].some((prefix) => under(pathname, prefix));
}
