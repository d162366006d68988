import type { RouteObject } from 'react-router';
import { NotBuiltYetPage } from './lazy-screens.ts';

/**
 * The signed-in screens of core §2 (plus kiosks, ARCHITECTURE "Web app"). Screens of later
 * issues show the shared "Not built yet" page; each issue swaps its rows for a real lazy screen.
 */
const PLANNED: ReadonlyArray<readonly [path: string, title: string]> = [
  ['entity', 'Entities'],
  ['entity/new', 'New entity'],
  ['entity/config', 'Entity configuration'],
  ['saccounts', 'Accounts'],
  ['saccounts/new', 'New account'],
  ['saccounts/:name', 'Edit account'],
  ['sdevices', 'Devices'],
  ['sdevices/new', 'New device'],
  ['sdevices/:name', 'Edit device'],
  ['account', 'Accounts'],
  ['account/new', 'New account'],
  ['account/:name', 'Edit account'],
  ['settings', 'Account settings'],
  ['dataview', 'Dataviews'],
  ['dataview/new', 'New dataview'],
  ['dataview/:name', 'Edit dataview'],
  ['sDataview', 'Dataviews'],
  ['appbuilder/:name', 'App builder'],
  ['site', 'Sites'],
  ['site/new', 'New site'],
  ['site/:name', 'Edit site'],
  ['dispenser', 'Groups'],
  ['dispenser/new', 'New group'],
  ['dispenser/:name', 'Edit group'],
  ['device', 'Devices'],
  ['device/new', 'New device'],
  ['devices/new-multiple', 'Add multiple devices'],
  ['device/:name', 'Edit device'],
  ['device/:name/allocate', 'Allocate device'],
  ['device/:name/deploy', 'Return Device'],
  ['beacon-demo', 'Beacon demo'],
  ['kiosk', 'Kiosks'],
  ['kiosk/new', 'New kiosk'],
  ['kiosk/:name', 'Edit kiosk'],
];

export const screenRoutes: RouteObject[] = PLANNED.map(([path, title]) => ({
  path,
  // The key remounts the page between routes that share the component.
  element: <NotBuiltYetPage key={path} title={title} />,
}));
