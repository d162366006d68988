import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import {
  AccountEditPage,
  AccountListPage,
  AccountNewPage,
  DeviceBulkPage,
  DeviceEditPage,
  DeviceListPage,
  DeviceNewPage,
  EntityListPage,
  EntityNewPage,
  LandlordAccountEditPage,
  LandlordAccountListPage,
  LandlordAccountNewPage,
  LandlordDeviceEditPage,
  LandlordDeviceListPage,
  LandlordDeviceNewPage,
  NotBuiltYetPage,
  SettingsPage,
} from './lazy-screens.ts';
import { RoleGate } from './role-gate.tsx';

/**
 * Built screens: path, screen, and the role it is for with the other role's counterpart
 * (landlord screens use plain API paths, entity screens tenant ones). Settings serve both.
 */
const BUILT: ReadonlyArray<
  readonly [path: string, Screen: ComponentType, role?: { landlord: boolean; otherwise: string }]
> = [
  ['entity', EntityListPage, { landlord: true, otherwise: '/account' }],
  ['entity/new', EntityNewPage, { landlord: true, otherwise: '/account' }],
  ['saccounts', LandlordAccountListPage, { landlord: true, otherwise: '/account' }],
  ['saccounts/new', LandlordAccountNewPage, { landlord: true, otherwise: '/account/new' }],
  ['saccounts/:name', LandlordAccountEditPage, { landlord: true, otherwise: '/account/:name' }],
  ['account', AccountListPage, { landlord: false, otherwise: '/saccounts' }],
  ['account/new', AccountNewPage, { landlord: false, otherwise: '/saccounts/new' }],
  ['account/:name', AccountEditPage, { landlord: false, otherwise: '/saccounts/:name' }],
  ['settings', SettingsPage],
  ['sdevices', LandlordDeviceListPage, { landlord: true, otherwise: '/device' }],
  ['sdevices/new', LandlordDeviceNewPage, { landlord: true, otherwise: '/device/new' }],
  ['sdevices/:name', LandlordDeviceEditPage, { landlord: true, otherwise: '/device/:name' }],
  ['device', DeviceListPage, { landlord: false, otherwise: '/sdevices' }],
  ['device/new', DeviceNewPage, { landlord: false, otherwise: '/sdevices/new' }],
  ['device/:name', DeviceEditPage, { landlord: false, otherwise: '/sdevices/:name' }],
  // Both roles: the landlord chooses the entity on the form (no /sdevices counterpart exists).
  ['devices/new-multiple', DeviceBulkPage],
];

/**
 * The signed-in screens of core §2 (plus kiosks, ARCHITECTURE "Web app") that later issues
 * deliver: they show the shared "Not built yet" page until each issue swaps its rows for a screen.
 */
const PLANNED: ReadonlyArray<readonly [path: string, title: string]> = [
  ['entity/config', 'Entity configuration'],
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
  ['device/:name/allocate', 'Allocate device'],
  ['device/:name/deploy', 'Return Device'],
  ['beacon-demo', 'Beacon demo'],
  ['kiosk', 'Kiosks'],
  ['kiosk/new', 'New kiosk'],
  ['kiosk/:name', 'Edit kiosk'],
];

export const screenRoutes: RouteObject[] = [
  ...BUILT.map(([path, Screen, role]) => ({
    path,
    element: role ? (
      <RoleGate landlord={role.landlord} otherwise={role.otherwise}>
        <Screen />
      </RoleGate>
    ) : (
      <Screen />
    ),
  })),
  ...PLANNED.map(([path, title]) => ({
    path,
    // The key remounts the page between routes that share the component.
    element: <NotBuiltYetPage key={path} title={title} />,
  })),
];
