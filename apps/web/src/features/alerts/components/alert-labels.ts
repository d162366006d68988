import type { Alert } from '@fleet/shared/schemas/alert';

/** What each rule kind is called in the console. */
export const KIND_LABELS: Record<Alert['kind'], string> = {
  unresponsive: 'Unresponsive',
  battery_low: 'Battery low',
  device_error: 'ERROR or DEFECT',
};

export const STATUS_LABELS: Record<Alert['status'], string> = {
  active: 'Active',
  acknowledged: 'Acknowledged',
  cleared: 'Cleared',
};

/** The tone (components/ui/tones.module.css) of a severity. */
export const SEVERITY_TONES: Record<Alert['severity'], string> = { critical: 'red', warning: 'yellow', info: 'blue' };
export const STATUS_TONES: Record<Alert['status'], string> = { active: 'red', acknowledged: 'yellow', cleared: 'gray' };

/** One line on what the device showed when the alert was raised. */
export function alertDetail(alert: Alert): string {
  const d = alert.detail as { battery?: number | null; state?: string | null; last_seen?: string };
  if (alert.kind === 'battery_low')
    return d.battery === null || d.battery === undefined ? '' : `Battery ${d.battery} %`;
  if (alert.kind === 'device_error') return d.state ? `State ${d.state}` : '';
  return d.last_seen ? `Last seen ${new Date(d.last_seen).toLocaleString()}` : '';
}
