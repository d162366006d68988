import { lazy } from 'react';

// Each screen is its own chunk, so the login page never downloads the shell or other screens.
// The sign-in page and its layout are not here: they are in the entry chunk (see app-routes.tsx).
export const ShellLayout = lazy(() => import('./layouts/shell-layout.tsx').then((m) => ({ default: m.ShellLayout })));
export const NotFoundPage = lazy(() =>
  import('@/routes/errors/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);

// Accounts, entities and settings (issue 2).
export const EntityListPage = lazy(() =>
  import('@/routes/entity/entity-list-page.tsx').then((m) => ({ default: m.EntityListPage })),
);
export const EntityNewPage = lazy(() =>
  import('@/routes/entity/entity-new-page.tsx').then((m) => ({ default: m.EntityNewPage })),
);
export const LandlordAccountListPage = lazy(() =>
  import('@/routes/saccounts/landlord-account-list-page.tsx').then((m) => ({ default: m.LandlordAccountListPage })),
);
export const LandlordAccountNewPage = lazy(() =>
  import('@/routes/saccounts/landlord-account-new-page.tsx').then((m) => ({ default: m.LandlordAccountNewPage })),
);
export const LandlordAccountEditPage = lazy(() =>
  import('@/routes/saccounts/landlord-account-edit-page.tsx').then((m) => ({ default: m.LandlordAccountEditPage })),
);
export const AccountListPage = lazy(() =>
  import('@/routes/account/account-list-page.tsx').then((m) => ({ default: m.AccountListPage })),
);
export const AccountNewPage = lazy(() =>
  import('@/routes/account/account-new-page.tsx').then((m) => ({ default: m.AccountNewPage })),
);
export const AccountEditPage = lazy(() =>
  import('@/routes/account/account-edit-page.tsx').then((m) => ({ default: m.AccountEditPage })),
);
export const SettingsPage = lazy(() =>
  import('@/routes/settings/settings-page.tsx').then((m) => ({ default: m.SettingsPage })),
);

// Devices: list, create, edit and bulk upload (issue 3).
export const DeviceListPage = lazy(() =>
  import('@/routes/device/device-list-page.tsx').then((m) => ({ default: m.DeviceListPage })),
);
export const DeviceNewPage = lazy(() =>
  import('@/routes/device/device-new-page.tsx').then((m) => ({ default: m.DeviceNewPage })),
);
export const DeviceEditPage = lazy(() =>
  import('@/routes/device/device-edit-page.tsx').then((m) => ({ default: m.DeviceEditPage })),
);
export const DeviceBulkPage = lazy(() =>
  import('@/routes/device/device-bulk-page.tsx').then((m) => ({ default: m.DeviceBulkPage })),
);
export const LandlordDeviceListPage = lazy(() =>
  import('@/routes/sdevices/landlord-device-list-page.tsx').then((m) => ({ default: m.LandlordDeviceListPage })),
);
export const LandlordDeviceNewPage = lazy(() =>
  import('@/routes/sdevices/landlord-device-new-page.tsx').then((m) => ({ default: m.LandlordDeviceNewPage })),
);
export const LandlordDeviceEditPage = lazy(() =>
  import('@/routes/sdevices/landlord-device-edit-page.tsx').then((m) => ({ default: m.LandlordDeviceEditPage })),
);

// The organisation: sites, kiosks, groups and the entity config (issue 10).
export const SiteListPage = lazy(() =>
  import('@/routes/site/site-list-page.tsx').then((m) => ({ default: m.SiteListPage })),
);
export const SiteNewPage = lazy(() =>
  import('@/routes/site/site-new-page.tsx').then((m) => ({ default: m.SiteNewPage })),
);
export const SiteEditPage = lazy(() =>
  import('@/routes/site/site-edit-page.tsx').then((m) => ({ default: m.SiteEditPage })),
);
export const KioskListPage = lazy(() =>
  import('@/routes/kiosk/kiosk-list-page.tsx').then((m) => ({ default: m.KioskListPage })),
);
export const KioskNewPage = lazy(() =>
  import('@/routes/kiosk/kiosk-new-page.tsx').then((m) => ({ default: m.KioskNewPage })),
);
export const KioskEditPage = lazy(() =>
  import('@/routes/kiosk/kiosk-edit-page.tsx').then((m) => ({ default: m.KioskEditPage })),
);
export const GroupListPage = lazy(() =>
  import('@/routes/dispenser/group-list-page.tsx').then((m) => ({ default: m.GroupListPage })),
);
export const GroupNewPage = lazy(() =>
  import('@/routes/dispenser/group-new-page.tsx').then((m) => ({ default: m.GroupNewPage })),
);
export const GroupEditPage = lazy(() =>
  import('@/routes/dispenser/group-edit-page.tsx').then((m) => ({ default: m.GroupEditPage })),
);
export const EntityConfigPage = lazy(() =>
  import('@/routes/entity/entity-config-page.tsx').then((m) => ({ default: m.EntityConfigPage })),
);
export const EntityEditPage = lazy(() =>
  import('@/routes/entity/entity-edit-page.tsx').then((m) => ({ default: m.EntityEditPage })),
);
// Dataviews: entity list, create, edit, the landlord list and the builder (issue 13).
export const DataviewListPage = lazy(() =>
  import('@/routes/dataview/dataview-list-page.tsx').then((m) => ({ default: m.DataviewListPage })),
);
export const DataviewNewPage = lazy(() =>
  import('@/routes/dataview/dataview-new-page.tsx').then((m) => ({ default: m.DataviewNewPage })),
);
export const DataviewEditPage = lazy(() =>
  import('@/routes/dataview/dataview-edit-page.tsx').then((m) => ({ default: m.DataviewEditPage })),
);
export const LandlordDataviewListPage = lazy(() =>
  import('@/routes/sdataview/landlord-dataview-list-page.tsx').then((m) => ({ default: m.LandlordDataviewListPage })),
);
export const AppBuilderPage = lazy(() =>
  import('@/routes/appbuilder/app-builder-page.tsx').then((m) => ({ default: m.AppBuilderPage })),
);
// Beacon monitoring (issue 15): the only screen that loads socket.io-client.
export const BeaconDemoPage = lazy(() =>
  import('@/routes/beacon-demo/beacon-demo-page.tsx').then((m) => ({ default: m.BeaconDemoPage })),
);

// Allocation and return through the kiosk manager (issue 14).
export const DeviceAllocatePage = lazy(() =>
  import('@/routes/device/device-allocate-page.tsx').then((m) => ({ default: m.DeviceAllocatePage })),
);
export const DeviceReturnPage = lazy(() =>
  import('@/routes/device/device-return-page.tsx').then((m) => ({ default: m.DeviceReturnPage })),
);

// The audit log (issue 26): an entity's, and every entity's for the superadmin.
export const AuditPage = lazy(() => import('@/routes/audit/audit-page.tsx').then((m) => ({ default: m.AuditPage })));
export const LandlordAuditPage = lazy(() =>
  import('@/routes/saudit/landlord-audit-page.tsx').then((m) => ({ default: m.LandlordAuditPage })),
);

// Fleet health (issue 27): an entity's, and every entity's for the superadmin.
export const FleetHealthPage = lazy(() =>
  import('@/routes/fleet/fleet-health-page.tsx').then((m) => ({ default: m.FleetHealthPage })),
);
export const LandlordFleetHealthPage = lazy(() =>
  import('@/routes/sfleet/landlord-fleet-health-page.tsx').then((m) => ({ default: m.LandlordFleetHealthPage })),
);

// Alerts (issue 29): the active entity's.
export const AlertsPage = lazy(() =>
  import('@/routes/alerts/alerts-page.tsx').then((m) => ({ default: m.AlertsPage })),
);
export const WebhooksPage = lazy(() =>
  import('@/routes/alerts/webhooks-page.tsx').then((m) => ({ default: m.WebhooksPage })),
);
export const AlertRulesPage = lazy(() =>
  import('@/routes/alerts/alert-rules-page.tsx').then((m) => ({ default: m.AlertRulesPage })),
);
export const LandlordAlertsPage = lazy(() =>
  import('@/routes/salerts/landlord-alerts-page.tsx').then((m) => ({ default: m.LandlordAlertsPage })),
);

// Rollouts (issue 28): the active entity's.
export const RolloutsPage = lazy(() =>
  import('@/routes/rollouts/rollouts-page.tsx').then((m) => ({ default: m.RolloutsPage })),
);
export const RolloutNewPage = lazy(() =>
  import('@/routes/rollouts/rollout-new-page.tsx').then((m) => ({ default: m.RolloutNewPage })),
);
export const RolloutPage = lazy(() =>
  import('@/routes/rollouts/rollout-page.tsx').then((m) => ({ default: m.RolloutPage })),
);
