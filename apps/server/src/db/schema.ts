// The database schema (Drizzle), one file an area under schema/; drizzle-kit reads it through here.
export * from './schema/tenants.ts';
export * from './schema/fleet.ts';
export * from './schema/device-search.ts';
export * from './schema/beacons.ts';
export * from './schema/provisioning.ts';
export * from './schema/audit.ts';
export * from './schema/telemetry.ts';
export * from './schema/views.ts';
export * from './schema/rollouts.ts';
export * from './schema/alerts.ts';
export * from './schema/webhooks.ts';
export * from './schema/sso.ts';
export * from './schema/two-factor.ts';
