import type { Executor } from '../../db/client.ts';
import { alertRules } from '../../db/schema/alerts.ts';

/**
 * The rules every entity starts with (migration 0017 gave the first three to entities that
 * existed): silent for the spec's 20 minutes, battery at or below 15 % and not charging for
 * 5 minutes (cleared 1 minute after it recovers), a device in ERROR or DEFECT; and, for entities
 * created since 0018, a firmware update or a provisioning session that failed, and a rollout
 * paused. A failed command and charging stopped are not defaults: a device asleep fails commands,
 * and taking a device off its dock is everyday work (docs/alerts.md).
 */
export const DEFAULT_ALERT_RULES = [
  {
    name: 'Device unresponsive',
    kind: 'unresponsive',
    threshold: 20,
    start_delay_s: 0,
    clear_delay_s: 0,
    severity: 'warning',
  },
  {
    name: 'Battery low',
    kind: 'battery_low',
    threshold: 15,
    start_delay_s: 300,
    clear_delay_s: 60,
    severity: 'warning',
  },
  {
    name: 'Device in ERROR or DEFECT',
    kind: 'device_error',
    threshold: null,
    start_delay_s: 0,
    clear_delay_s: 0,
    severity: 'critical',
  },
  {
    name: 'Firmware update failed',
    kind: 'firmware_failed',
    threshold: null,
    start_delay_s: 0,
    clear_delay_s: 0,
    severity: 'warning',
  },
  {
    name: 'Provisioning failed',
    kind: 'provisioning_failed',
    threshold: null,
    start_delay_s: 0,
    clear_delay_s: 0,
    severity: 'warning',
  },
  {
    name: 'Rollout paused',
    kind: 'rollout_paused',
    threshold: null,
    start_delay_s: 0,
    clear_delay_s: 0,
    severity: 'critical',
  },
] as const;

/** Gives a new entity the default rules (in the transaction that creates it). */
export async function createDefaultRules(db: Executor, entity: string): Promise<void> {
  await db.insert(alertRules).values(DEFAULT_ALERT_RULES.map((r) => ({ ...r, entity })));
}
