import type { Alert } from '@fleet/shared/schemas/alert';

/** What each rule kind is called in the console. */
export const KIND_LABELS: Record<Alert['kind'], string> = {
  unresponsive: 'Unresponsive',
  battery_low: 'Battery low',
  device_error: 'ERROR or DEFECT',
  charging_stopped: 'Charging stopped',
  command_failed: 'Command failed',
  firmware_failed: 'Firmware update failed',
  provisioning_failed: 'Provisioning failed',
  rollout_paused: 'Rollout paused',
};

export const STATUS_LABELS: Record<Alert['status'], string> = {
  active: 'Active',
  acknowledged: 'Acknowledged',
  cleared: 'Cleared',
};

/** The tone (components/ui/tones.module.css) of a severity. */
export const SEVERITY_TONES: Record<Alert['severity'], string> = { critical: 'red', warning: 'yellow', info: 'blue' };
export const STATUS_TONES: Record<Alert['status'], string> = { active: 'red', acknowledged: 'yellow', cleared: 'gray' };

/** What the alert is about: its device, or (a rollout's alert) the rollout by name. */
export function alertSubject(alert: Alert): { label: string; device: string | null } {
  if (alert.device !== null) return { label: alert.device, device: alert.device };
  const name = (alert.detail as { rollout_name?: string }).rollout_name;
  return { label: `Rollout ${name ?? alert.rollout ?? ''}`.trim(), device: null };
}

/** One line on what the device showed when the alert was raised, or the failure it was raised for. */
export function alertDetail(alert: Alert): string {
  const d = alert.detail as {
    battery?: number | null;
    state?: string | null;
    last_seen?: string;
    error?: string | null;
    result?: string;
    reason?: string | null;
  };
  if (alert.kind === 'battery_low' || alert.kind === 'charging_stopped')
    return d.battery === null || d.battery === undefined ? '' : `Battery ${d.battery} %`;
  if (alert.kind === 'device_error') return d.state ? `State ${d.state}` : '';
  if (alert.kind === 'command_failed' || alert.kind === 'firmware_failed') return d.error ?? '';
  if (alert.kind === 'provisioning_failed') return d.result ? `Result ${d.result}` : '';
  if (alert.kind === 'rollout_paused') return d.reason ?? '';
  return d.last_seen ? `Last seen ${new Date(d.last_seen).toLocaleString()}` : '';
}
