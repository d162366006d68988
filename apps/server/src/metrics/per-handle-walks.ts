import type { Registry } from 'prom-client';

/**
 * prom-client's defaults that walk every libuv handle and resource at each scrape:
 * `process._getActiveHandles()` twice and `process.getActiveResourcesInfo()` twice, an array of
 * 10,000+ entries each with the devices connected, grouped by class name on the main thread. In
 * a profile at 10,000 devices and a scrape a second they were about 90 % of the scrape's CPU
 * (bench/notes/quiet-run-2026-11-28-late.md). The figures they gave are served better by
 * `fleet_mqtt_connected_devices`, `fleet_live_connections` and `process_open_fds`.
 */
export const PER_HANDLE_WALKS = [
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
] as const;

/** Removes PER_HANDLE_WALKS from `registry` (those of them it has). */
export function dropPerHandleWalks(registry: Registry): void {
  for (const name of PER_HANDLE_WALKS) if (registry.getSingleMetric(name)) registry.removeSingleMetric(name);
}
