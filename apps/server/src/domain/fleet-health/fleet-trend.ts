import { FLEET_HEALTH_WINDOWS, type FleetHealth } from '@fleet/shared/schemas/fleet-health';
import type { Db } from '../../db/client.ts';
import {
  DAY_MS,
  dailyActivity,
  dayIso,
  existedByDay,
  snapshotRows,
  utcDay,
  type Outcome,
} from './fleet-daily-queries.ts';
import type { FleetScope } from './fleet-now.ts';

type Trend = Pick<FleetHealth, 'presence' | 'adoption' | 'outcomes'>;

/**
 * A 7 d or 30 d window in daily (UTC) columns, today's included: the past days from the daily
 * snapshot (one read of at most 30 rows per entity), today, and any day the sweep has not written
 * yet, from the tables that keep them, as the snapshot would have. `totalNow` is the scope's
 * devices now: today's column's count of devices that exist.
 */
export async function fleetTrend(
  db: Db,
  scope: FleetScope,
  window: '7d' | '30d',
  now: Date,
  totalNow: Promise<number>,
): Promise<Trend> {
  const days = FLEET_HEALTH_WINDOWS[window].hours / 24;
  const today = utcDay(now.getTime());
  const first = today - (days - 1) * DAY_MS;
  const kept = await snapshotRows(db, scope, dayIso(first), dayIso(today));
  const newest = kept.reduce((max, r) => (r.day > max ? r.day : max), '');
  const liveFrom = newest ? Date.parse(newest) + DAY_MS : first;
  const [live, existed] = await Promise.all([
    dailyActivity(db, scope, liveFrom, now.getTime()),
    liveFrom < today ? existedByDay(db, scope, liveFrom) : totalNow.then((n) => () => n),
  ]);
  const rows = [...kept, ...live.map((a) => ({ ...a, existed: existed(a.entity, a.day) }))];

  const perDay = new Map<string, { online: number; heard: number; existed: number }>();
  const adoption = new Map<string, number>();
  const sums = { commands: new Map<string, number>(), firmware_updates: new Map(), provisioning: new Map() };
  for (const r of rows) {
    const day = perDay.get(r.day) ?? { online: 0, heard: 0, existed: 0 };
    perDay.set(r.day, {
      online: day.online + r.online_day,
      heard: day.heard + r.heard_day,
      existed: day.existed + r.existed,
    });
    for (const a of r.adoption) add(adoption, `${r.day}\n${a.version}`, a.count);
    for (const key of ['commands', 'firmware_updates', 'provisioning'] as const)
      for (const o of r[key]) add(sums[key], o.outcome, o.count);
  }
  const at = (day: string) => `${day}T00:00:00.000Z`;
  return {
    presence: {
      bucket_s: 86_400,
      // A day the roll-up knows nothing of is not drawn (no history then), as in the hourly window.
      points: [...perDay.entries()]
        .filter(([, d]) => d.online > 0 || d.heard > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, d]) => ({ at: at(day), online: d.online, silent: Math.max(0, d.existed - d.heard) })),
    },
    adoption: [...adoption.entries()]
      .map(([key, count]) => {
        const [day = '', version = ''] = key.split('\n');
        return { at: at(day), version, count };
      })
      .sort((a, b) => a.at.localeCompare(b.at) || a.version.localeCompare(b.version)),
    outcomes: {
      commands: byCount(sums.commands),
      firmware_updates: byCount(sums.firmware_updates),
      provisioning: byCount(sums.provisioning),
    },
  };
}

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** Outcomes most frequent first, then by name. */
const byCount = (map: Map<string, number>): Outcome[] =>
  [...map.entries()]
    .map(([outcome, count]) => ({ outcome, count }))
    .sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome));
