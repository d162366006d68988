import { sql } from 'drizzle-orm';
import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/raw-sql.ts';

/** Counts read from the database at scrape time, every entity together (no tenant in a label). */
export interface FleetCounts {
  devices: { total: number; online: number; unresponsive: number };
  /** Open commands (queued, sent), by state: the partial index `commands_open_idx` answers it. */
  commandsOpen: Record<string, number>;
  /** Provisioning sessions stored, by status (an ended one keeps its outcome). */
  provisionSessions: Record<string, number>;
  rollouts: Record<string, number>;
  /** Alerts not cleared, by status. */
  alerts: Record<string, number>;
}

interface Grouped {
  what: string;
  key: string | null;
  n: number;
}

/**
 * One round trip for every figure: the devices' one scan (the fleet health screen's predicates:
 * unresponsive on the shared 20 minutes) and four small GROUP BYs on indexed or small tables.
 */
export async function readFleetCounts(db: Db, now = new Date()): Promise<FleetCounts> {
  const cutoff = new Date(now.getTime() - UNRESPONSIVE_AFTER_MS).toISOString();
  const rows = rowsOf<Grouped>(
    await db.execute(sql`
      select 'devices' as what, v.key, v.n from (
        select count(*)::int as total, count(*) filter (where online)::int as online,
          count(*) filter (where updated_at < ${cutoff}::timestamptz)::int as unresponsive
        from devices) d,
        lateral (values ('total', d.total), ('online', d.online), ('unresponsive', d.unresponsive)) v(key, n)
      union all select 'commands', state, count(*)::int from commands where state in ('queued', 'sent') group by state
      union all select 'provision', status, count(*)::int from provision_sessions group by status
      union all select 'rollouts', state, count(*)::int from rollouts group by state
      union all select 'alerts', status, count(*)::int from alerts where status <> 'cleared' group by status`),
  );
  const of = (what: string) =>
    Object.fromEntries(rows.filter((r) => r.what === what).map((r) => [r.key ?? '', Number(r.n)]));
  const devices = of('devices');
  return {
    devices: { total: devices.total ?? 0, online: devices.online ?? 0, unresponsive: devices.unresponsive ?? 0 },
    commandsOpen: of('commands'),
    provisionSessions: of('provision'),
    rollouts: of('rollouts'),
    alerts: of('alerts'),
  };
}

/**
 * How long one read of the fleet's counts serves the scrapes of this instance (docs/metrics.md):
 * a scrape every second (or several Prometheus servers) reads the database at most once in
 * this time, and the gauges are at most this old. Counting every device is a scan of the whole
 * table on the embedded database's one connection, where commands wait behind it.
 */
export const FLEET_COUNTS_MAX_AGE_MS = 5_000;

/**
 * `read`, answered from its last result while that is younger than `maxAgeMs` (by `now`); scrapes
 * arriving while a read runs share it. A failed read is not kept: the next scrape reads again.
 */
export function cachedFor<T>(maxAgeMs: number, read: () => Promise<T>, now = () => Date.now()): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    const t = now();
    if (last && t - last.at < maxAgeMs) return last.value;
    const value = read();
    const entry = { at: t, value };
    last = entry;
    value.catch(() => {
      if (last === entry) last = null;
    });
    return value;
  };
}
