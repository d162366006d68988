import type { Telemetry, TimelineItem } from '@fleet/shared/schemas/telemetry';

/** The ranges the History view offers, back from now. */
export const HISTORY_RANGES = [
  { value: '24h', label: '24 h', ms: 86_400_000 },
  { value: '7d', label: '7 d', ms: 7 * 86_400_000 },
  { value: '30d', label: '30 d', ms: 30 * 86_400_000 },
] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number]['value'];

export const rangeMs = (range: HistoryRange) => HISTORY_RANGES.find((r) => r.value === range)!.ms;

/** One point of the battery line: time (ms), level (0–100) and, for buckets, the hour's min and max. */
export interface BatteryPoint {
  t: number;
  battery: number;
  min?: number;
  max?: number;
}

/** A stretch of time in one condition: charging, online, or a state. */
export interface Band {
  from: number;
  to: number;
  value: string;
}

export interface HistorySeries {
  from: number;
  to: number;
  battery: BatteryPoint[];
  /** Stretches charging (`charging`), for the shading under the line. */
  charging: Band[];
  /** Stretches online (`online`) or offline (`offline`). */
  presence: Band[];
  /** Stretches in each reported state. */
  states: Band[];
}

/** Joins neighbouring stretches of the same value; drops the empty ones. */
function merge(bands: Band[]): Band[] {
  const out: Band[] = [];
  for (const band of bands) {
    if (band.to <= band.from) continue;
    const last = out.at(-1);
    if (last && last.value === band.value && last.to >= band.from) last.to = Math.max(last.to, band.to);
    else out.push({ ...band });
  }
  return out;
}

/**
 * The chart's series from the telemetry answer: raw points as they are (each lasting until the
 * next, the last until `to`), hourly buckets by their mean (min and max kept), a bucket counted
 * as charging, online or in a state when it spent at least half its time so.
 */
export function historySeries(telemetry: Telemetry): HistorySeries {
  const from = Date.parse(telemetry.from);
  const to = Date.parse(telemetry.to);
  const battery: BatteryPoint[] = [];
  const charging: Band[] = [];
  const presence: Band[] = [];
  const states: Band[] = [];

  if (telemetry.resolution === 'raw') {
    telemetry.points.forEach((p, i) => {
      const t = Date.parse(p.at);
      const end = i + 1 < telemetry.points.length ? Date.parse(telemetry.points[i + 1]!.at) : to;
      if (p.battery !== null) battery.push({ t, battery: p.battery });
      if (p.is_charging) charging.push({ from: t, to: end, value: 'charging' });
      presence.push({ from: t, to: end, value: p.online ? 'online' : 'offline' });
      if (p.state) states.push({ from: t, to: end, value: p.state });
    });
  } else {
    const length = (telemetry.bucket_s ?? 3600) * 1000;
    for (const b of telemetry.buckets) {
      const t = Date.parse(b.at);
      const end = Math.min(t + length, to);
      const half = length / 2000;
      if (b.battery_mean !== null) {
        battery.push({
          t: t + length / 2,
          battery: Math.round(b.battery_mean * 10) / 10,
          min: b.battery_min ?? undefined,
          max: b.battery_max ?? undefined,
        });
      }
      if (b.charging_s >= half) charging.push({ from: t, to: end, value: 'charging' });
      presence.push({ from: t, to: end, value: b.online_s >= half ? 'online' : 'offline' });
      const top = Object.entries(b.state_s).sort((x, y) => y[1] - x[1])[0];
      if (top && top[1] >= half) states.push({ from: t, to: end, value: top[0] });
    }
  }
  return { from, to, battery, charging: merge(charging), presence: merge(presence), states: merge(states) };
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** One timeline event in words: a title and a detail line. */
export function timelineText(item: TimelineItem): { title: string; detail: string | null } {
  const d = item.data;
  const join = (...parts: (string | null | false)[]) => parts.filter(Boolean).join(' · ') || null;
  switch (item.type) {
    case 'online':
      return { title: 'Came online', detail: join(d.battery != null && `Battery ${text(d.battery)} %`) };
    case 'offline':
      return { title: 'Went offline', detail: join(d.battery != null && `Battery ${text(d.battery)} %`) };
    case 'state':
      return {
        title: d.state ? `State: ${text(d.state)}` : 'State changed',
        detail: join(
          d.battery != null && `Battery ${text(d.battery)} %`,
          d.is_charging === true && 'charging',
          d.fw_version != null && `Firmware ${text(d.fw_version)}`,
        ),
      };
    case 'command':
      return {
        title: `Command ${text(d.command) ?? ''}`.trim(),
        detail: join(text(d.state), text(d.error), d.sent_by != null && `by ${text(d.sent_by)}`),
      };
    case 'firmware_update':
      return {
        title: d.version != null ? `Firmware update to ${text(d.version)}` : 'Firmware update',
        detail: join(text(d.state), text(d.error), d.sent_by != null && `by ${text(d.sent_by)}`),
      };
    case 'provisioning':
      return {
        title: 'Provisioning',
        detail: join(text(d.status), text(d.error), d.started_by != null && `by ${text(d.started_by)}`),
      };
    case 'allocation':
      return {
        title: 'Allocated',
        detail: join(text(d.dispenser), text(d.outcome), d.allocated_by != null && `by ${text(d.allocated_by)}`),
      };
    case 'return':
      return {
        title: 'Returned',
        detail: join(
          d.returned_to != null && `to ${text(d.returned_to)}`,
          d.returned_by != null && `by ${text(d.returned_by)}`,
        ),
      };
    case 'audit':
      return {
        title: text(d.action) ?? 'Audit entry',
        detail: join(text(d.actor), d.outcome === 'failure' && 'failed', text(d.reason)),
      };
  }
}
