import type {
  Rollout,
  RolloutDeviceState,
  RolloutState,
  RolloutTarget,
  RolloutWindow,
} from '@fleet/shared/schemas/rollout';

export const STATE_LABELS: Record<RolloutState, string> = {
  draft: 'Draft',
  running: 'Running',
  paused: 'Paused',
  awaiting_approval: 'Awaiting approval',
  cancelled: 'Cancelled',
  finished: 'Finished',
};

export const STATE_TONES: Record<RolloutState, string> = {
  draft: 'gray',
  running: 'blue',
  paused: 'red',
  awaiting_approval: 'yellow',
  cancelled: 'gray',
  finished: 'green',
};

/** A device's results in the order the bars and the legend draw them. */
export const RESULTS = [
  { state: 'succeeded', label: 'Succeeded', color: 'green.7' },
  { state: 'failed', label: 'Failed', color: 'red.7' },
  { state: 'in_flight', label: 'In flight', color: 'blue.6' },
  { state: 'skipped', label: 'Skipped', color: 'grape.6' },
  { state: 'waiting', label: 'Waiting', color: 'gray.5' },
] as const satisfies ReadonlyArray<{ state: RolloutDeviceState; label: string; color: string }>;

export const RESULT_LABELS = Object.fromEntries(RESULTS.map((r) => [r.state, r.label])) as Record<
  RolloutDeviceState,
  string
>;

/** The target in words: "Whole entity", "Group hall_a", "Site Lobby", "Filter battery=Low". */
export function targetLabel(target: RolloutTarget): string {
  switch (target.kind) {
    case 'entity':
      return 'Whole entity';
    case 'view':
      return `Saved view ${target.name}`;
    case 'group':
      return `Group ${target.name}`;
    case 'site':
      return `Site ${target.name}`;
    case 'filter':
      return `Filter ${target.query || '(every device)'}`;
  }
}

/** What a rollout delivers: "CC1 firmware 5.0.0", or each device's file set. */
export function deliversLabel(r: Pick<Rollout, 'delivery' | 'device_type' | 'version'>): string {
  return r.delivery === 'files' ? 'File set (provisioning)' : `${r.device_type} firmware ${r.version}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** A time window in words: "Mon, Tue 22:00–06:00 Europe/Paris"; "Any time" without one. */
export function windowLabel(w: RolloutWindow | null): string {
  if (!w) return 'Any time';
  return `${[...w.days]
    .sort()
    .map((d) => DAYS[d])
    .join(', ')} ${w.from}–${w.to} ${w.tz}`;
}
