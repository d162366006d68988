import { sql } from 'drizzle-orm';
import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/raw-sql.ts';
import { unresponsiveOf } from '../domain/fleet-health/fleet-now.ts';

/** Counts read from the database for the scrapes, every entity together (no tenant in a label). */
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
 * The fleet health screen's reads, every entity's: devices and online from the counts kept as the
 * devices change (`fleet_counts`, migration 0028), unresponsive from the `updated_at` index
 * (unresponsiveOf); no statement scans `devices`. Then four small GROUP BYs in one statement.
 * Three short statements, so the embedded database's one connection is free between them.
 */
export async function readFleetCounts(db: Db, now = new Date()): Promise<FleetCounts> {
  const kept = rowsOf<{ dim: string; n: number }>(
    await db.execute(sql`
      select dim, sum(n)::int as n from fleet_counts where dim in ('total', 'online') group by dim`),
  );
  const total = Number(kept.find((r) => r.dim === 'total')?.n ?? 0);
  const cutoff = new Date(now.getTime() - UNRESPONSIVE_AFTER_MS).toISOString();
  const unresponsive = total === 0 ? 0 : await unresponsiveOf(db, null, cutoff, total);
  const rows = rowsOf<Grouped>(
    await db.execute(sql`
      select 'commands' as what, state as key, count(*)::int as n from commands
        where state in ('queued', 'sent') group by state
      union all select 'provision', status, count(*)::int from provision_sessions group by status
      union all select 'rollouts', state, count(*)::int from rollouts group by state
      union all select 'alerts', status, count(*)::int from alerts where status <> 'cleared' group by status`),
  );
  const of = (what: string) =>
    Object.fromEntries(rows.filter((r) => r.what === what).map((r) => [r.key ?? '', Number(r.n)]));
  return {
    devices: { total, online: Number(kept.find((r) => r.dim === 'online')?.n ?? 0), unresponsive },
    commandsOpen: of('commands'),
    provisionSessions: of('provision'),
    rollouts: of('rollouts'),
    alerts: of('alerts'),
  };
}

/**
 * How often the fleet's counts are read for the scrapes of this instance (docs/metrics.md), by a
 * timer from the first scrape on, never on a scrape's path while the last read is fresh.
 */
export const FLEET_COUNTS_MAX_AGE_MS = 5_000;
