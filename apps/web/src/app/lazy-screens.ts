import { lazy } from 'react';

// Each screen is its own chunk, so the login page never downloads the shell or other screens.
export const AuthLayout = lazy(() => import('./layouts/auth-layout.tsx').then((m) => ({ default: m.AuthLayout })));
export const ShellLayout = lazy(() => import('./layouts/shell-layout.tsx').then((m) => ({ default: m.ShellLayout })));
export const LoginPage = lazy(() => import('@/routes/auth/login-page.tsx').then((m) => ({ default: m.LoginPage })));
export const NotFoundPage = lazy(() =>
  import('@/routes/errors/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);
export const NotBuiltYetPage = lazy(() =>
  import('@/routes/not-built-yet/not-built-yet-page.tsx').then((m) => ({ default: m.NotBuiltYetPage })),
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
