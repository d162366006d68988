import { sql } from 'drizzle-orm';
import {
  DEFAULT_TELEMETRY_RANGE_MS,
  MAX_TELEMETRY_POINTS,
  type Telemetry,
  type TelemetryBucket,
  type TelemetryPoint,
  type TelemetryQuery,
} from '@fleet/shared/schemas/telemetry';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { hourlyAggregates } from './telemetry-sweep.ts';

const HOUR_MS = 3_600_000;
/** Ranges up to this long are answered with raw points, when they hold no more than MAX_TELEMETRY_POINTS. */
const RAW_SPAN_MS = 2 * 24 * HOUR_MS;

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

interface HourRow {
  hour: string;
  points: number;
  battery_min: number | null;
  battery_max: number | null;
  battery_mean: number | null;
  charging_s: number;
  online_s: number;
  state_s: Record<string, number> | string;
}

/**
 * A device's telemetry over [from, to): its raw points when the range is short and holds at most
 * MAX_TELEMETRY_POINTS, else hourly aggregates (from the hourly table, and computed from the raw
 * points for the hours not yet rolled up) merged into buckets of as many hours as keep their
 * number under the same limit.
 */
export async function deviceTelemetryHistory(
  db: Db,
  device: { entity: string; name: string },
  query: TelemetryQuery,
  now = new Date(),
): Promise<Telemetry> {
  const to = query.to ? Date.parse(query.to) : now.getTime();
  const from = query.from ? Date.parse(query.from) : to - DEFAULT_TELEMETRY_RANGE_MS;
  const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  const only = { entity: device.entity, device: device.name };

  if (to - from <= RAW_SPAN_MS) {
    const rows = rowsOf<Record<string, unknown>>(
      await db.execute(sql`
        select at, device_at, kind, online, state, battery, is_charging, fw_version from device_telemetry
        where entity = ${only.entity} and device = ${only.device}
          and at >= ${range.from}::timestamptz and at < ${range.to}::timestamptz
        order by at limit ${MAX_TELEMETRY_POINTS + 1}`),
    );
    if (rows.length <= MAX_TELEMETRY_POINTS) {
      const points = rows.map((r) => ({ ...r, at: iso(r.at), device_at: iso(r.device_at) }) as TelemetryPoint);
      return { ...range, resolution: 'raw', bucket_s: null, points, buckets: [] };
    }
  }

  const start = Math.floor(from / HOUR_MS) * HOUR_MS;
  const bucketHours = Math.max(1, Math.ceil((to - start) / HOUR_MS / MAX_TELEMETRY_POINTS));
  const [mark] = rowsOf<{ through: string | null }>(await db.execute(sql`select through from telemetry_rollup`));
  const through = Math.max(start, Math.min(to, mark?.through ? Date.parse(mark.through) : start));
  const startIso = new Date(start).toISOString();
  const throughIso = new Date(through).toISOString();
  const hours = rowsOf<HourRow>(
    await db.execute(sql`
      select hour, points, battery_min, battery_max, battery_mean, charging_s, online_s, state_s
      from device_telemetry_hourly
      where entity = ${only.entity} and device = ${only.device}
        and hour >= ${startIso}::timestamptz and hour < ${throughIso}::timestamptz
      order by hour`),
  );
  if (through < to) {
    const tail = rowsOf<HourRow>(await db.execute(hourlyAggregates(throughIso, range.to, only)));
    hours.push(...tail.sort((a, b) => Date.parse(a.hour) - Date.parse(b.hour)));
  }
  return {
    ...range,
    resolution: 'hourly',
    bucket_s: bucketHours * 3600,
    points: [],
    buckets: bucket(hours, start, bucketHours),
  };
}

/** Merges hourly rows into buckets of `hours` hours from `start`: extremes kept, the mean weighted by points, times summed. */
function bucket(rows: HourRow[], start: number, hours: number): TelemetryBucket[] {
  const out: Array<TelemetryBucket & { weight: number }> = [];
  let current: (typeof out)[number] | undefined;
  for (const row of rows) {
    const t = new Date(row.hour).getTime();
    const at = new Date(start + Math.floor((t - start) / (hours * HOUR_MS)) * hours * HOUR_MS).toISOString();
    if (current?.at !== at) {
      current = {
        at,
        points: 0,
        battery_min: null,
        battery_max: null,
        battery_mean: null,
        charging_s: 0,
        online_s: 0,
        state_s: {},
        weight: 0,
      };
      out.push(current);
    }
    const n = Number(row.points);
    current.points += n;
    current.charging_s += Number(row.charging_s);
    current.online_s += Number(row.online_s);
    if (row.battery_mean !== null) {
      const mean = Number(row.battery_mean);
      current.battery_min = Math.min(current.battery_min ?? Infinity, Number(row.battery_min));
      current.battery_max = Math.max(current.battery_max ?? -Infinity, Number(row.battery_max));
      const w = Math.max(n, 1);
      current.battery_mean = ((current.battery_mean ?? 0) * current.weight + mean * w) / (current.weight + w);
      current.weight += w;
    }
    const states = typeof row.state_s === 'string' ? (JSON.parse(row.state_s) as Record<string, number>) : row.state_s;
    for (const [state, secs] of Object.entries(states)) current.state_s[state] = (current.state_s[state] ?? 0) + secs;
  }
  return out.map(({ weight: _, ...b }) => ({
    ...b,
    battery_mean: b.battery_mean === null ? null : Math.round(b.battery_mean * 10) / 10,
  }));
}
