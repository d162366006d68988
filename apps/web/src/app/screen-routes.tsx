import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import {
  AccountEditPage,
  AlertsPage,
  WebhooksPage,
  AlertRulesPage,
  LandlordAlertsPage,
  RolloutNewPage,
  RolloutPage,
  RolloutsPage,
  AppBuilderPage,
  AuditPage,
  FleetHealthPage,
  DataviewEditPage,
  DataviewListPage,
  DataviewNewPage,
  LandlordDataviewListPage,
  AccountListPage,
  AccountNewPage,
  BeaconDemoPage,
  DeviceAllocatePage,
  DeviceBulkPage,
  DeviceReturnPage,
  DeviceEditPage,
  DeviceListPage,
  DeviceNewPage,
  EntityConfigPage,
  EntityEditPage,
  EntityListPage,
  EntityNewPage,
  GroupEditPage,
  GroupListPage,
  GroupNewPage,
  KioskEditPage,
  KioskListPage,
  KioskNewPage,
  LandlordAccountEditPage,
  LandlordAccountListPage,
  LandlordAccountNewPage,
  LandlordAuditPage,
  LandlordFleetHealthPage,
  LandlordDeviceEditPage,
  LandlordDeviceListPage,
  LandlordDeviceNewPage,
  SettingsPage,
  SiteEditPage,
  SiteListPage,
  SiteNewPage,
} from './lazy-screens.ts';
import { RoleGate } from './role-gate.tsx';

/**
 * Built screens: path, screen, and the role it is for with the other role's counterpart
 * (landlord screens use plain API paths, entity screens tenant ones; null: an entity screen with
 * no landlord counterpart, where a superadmin is asked which entity). Settings serve both.
 */
const BUILT: ReadonlyArray<
  readonly [
    path: string,
    Screen: ComponentType,
    role?: { landlord: boolean; otherwise: string | null; crossEntity?: boolean },
  ]
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
  ['device/:name/allocate', DeviceAllocatePage, { landlord: false, otherwise: '/sdevices/:name' }],
  ['device/:name/deploy', DeviceReturnPage, { landlord: false, otherwise: '/sdevices/:name' }],
  // Both roles: the landlord chooses the entity on the form (no /sdevices counterpart exists).
  ['devices/new-multiple', DeviceBulkPage],
  // The organisation (issue 10). Kiosks have no route in the spec; ours are reached from Sites.
  ['entity/config', EntityConfigPage, { landlord: false, otherwise: null }],
  ['entity/:entityName', EntityEditPage, { landlord: true, otherwise: '/entity/config' }],
  ['site', SiteListPage, { landlord: false, otherwise: null }],
  ['site/new', SiteNewPage, { landlord: false, otherwise: null }],
  ['site/:name', SiteEditPage, { landlord: false, otherwise: null }],
  ['kiosk', KioskListPage, { landlord: false, otherwise: null }],
  ['kiosk/new', KioskNewPage, { landlord: false, otherwise: null }],
  ['kiosk/:name', KioskEditPage, { landlord: false, otherwise: null }],
  ['dispenser', GroupListPage, { landlord: false, otherwise: null }],
  ['dispenser/new', GroupNewPage, { landlord: false, otherwise: null }],
  ['dispenser/:name', GroupEditPage, { landlord: false, otherwise: null }],
  ['dataview', DataviewListPage, { landlord: false, otherwise: '/sDataview' }],
  ['sDataview', LandlordDataviewListPage, { landlord: true, otherwise: '/dataview' }],
  // The landlord's links from /sDataview carry `?entity=` (its list spans entities).
  ['dataview/new', DataviewNewPage, { landlord: false, otherwise: null, crossEntity: true }],
  ['dataview/:name', DataviewEditPage, { landlord: false, otherwise: null, crossEntity: true }],
  ['appbuilder/:name', AppBuilderPage, { landlord: false, otherwise: null, crossEntity: true }],
  ['beacon-demo', BeaconDemoPage, { landlord: false, otherwise: null }],
  // The audit log (issue 26): not in the spec's list; reached from the navigation after its items.
  ['audit', AuditPage, { landlord: false, otherwise: '/saudit' }],
  ['saudit', LandlordAuditPage, { landlord: true, otherwise: '/audit' }],
  // Fleet health (issue 27): after the spec's items too; every account that reads devices.
  ['fleet', FleetHealthPage, { landlord: false, otherwise: '/sfleet' }],
  ['sfleet', LandlordFleetHealthPage, { landlord: true, otherwise: '/fleet' }],
  // Alerts (issue 29): after the spec's items; everyone who reads the entity's devices.
  ['alerts', AlertsPage, { landlord: false, otherwise: null }],
  ['alerts/webhooks', WebhooksPage, { landlord: false, otherwise: null }],
  ['alerts/rules', AlertRulesPage, { landlord: false, otherwise: null }],
  ['salerts', LandlordAlertsPage, { landlord: true, otherwise: '/alerts' }],
  // Rollouts (issue 28): after the spec's items; everyone who may send device commands.
  ['rollouts', RolloutsPage, { landlord: false, otherwise: null }],
  ['rollouts/new', RolloutNewPage, { landlord: false, otherwise: null }],
  ['rollouts/:id', RolloutPage, { landlord: false, otherwise: null }],
];

/** The signed-in screens of core §2 (plus kiosks, ARCHITECTURE "Web app"), each behind its role gate. */
export const screenRoutes: RouteObject[] = [
  ...BUILT.map(([path, Screen, role]) => ({
    path,
    element: role ? (
      <RoleGate landlord={role.landlord} otherwise={role.otherwise} crossEntity={role.crossEntity}>
        <Screen />
      </RoleGate>
    ) : (
      <Screen />
    ),
  })),
];
