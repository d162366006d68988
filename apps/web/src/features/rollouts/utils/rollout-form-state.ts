import {
  ROLLOUT_DEFAULTS,
  type RolloutCreate,
  type RolloutDelivery,
  type RolloutTarget,
  type RolloutWindow,
} from '@fleet/shared/schemas/rollout';
import { ApiError } from '@/lib/api/api-error.ts';

export type TargetKind = RolloutTarget['kind'];

/** The create form's values, as the inputs hold them. */
export interface RolloutFormValues {
  name: string;
  delivery: RolloutDelivery;
  firmware_id: string;
  target: TargetKind;
  /** The group's, site's or saved view's name for those targets. */
  targetName: string;
  /** The device-list query for a filter target. */
  query: string;
  canary: number;
  percents: number[];
  success_threshold_pct: number;
  error_threshold_pct: number;
  report_timeout_s: number;
  max_in_flight: number;
  approval: boolean;
  soak_s: number;
  jitter_s: number;
  window: RolloutWindow | null;
}

export const FORM_DEFAULTS: RolloutFormValues = {
  name: '',
  delivery: 'firmware',
  firmware_id: '',
  target: 'entity',
  targetName: '',
  query: '',
  canary: ROLLOUT_DEFAULTS.canary,
  percents: [...ROLLOUT_DEFAULTS.percents],
  success_threshold_pct: ROLLOUT_DEFAULTS.success_threshold_pct,
  error_threshold_pct: ROLLOUT_DEFAULTS.error_threshold_pct,
  report_timeout_s: ROLLOUT_DEFAULTS.report_timeout_s,
  max_in_flight: ROLLOUT_DEFAULTS.max_in_flight,
  approval: ROLLOUT_DEFAULTS.approval,
  soak_s: ROLLOUT_DEFAULTS.soak_s,
  jitter_s: ROLLOUT_DEFAULTS.jitter_s,
  window: null,
};

/** A window the form starts from when the person turns one on: weeknights in their own time zone. */
export const defaultWindow = (): RolloutWindow => ({
  days: [1, 2, 3, 4, 5],
  from: '22:00',
  to: '06:00',
  tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
});

export function targetOf(v: RolloutFormValues): RolloutTarget {
  switch (v.target) {
    case 'entity':
      return { kind: 'entity' };
    case 'filter':
      return { kind: 'filter', query: v.query.trim() };
    default:
      return { kind: v.target, name: v.targetName };
  }
}

/** The request body: what the API takes (the dry run takes the same). */
export function bodyOf(v: RolloutFormValues): RolloutCreate {
  const { target: _kind, targetName: _name, query: _query, firmware_id, ...rest } = v;
  return {
    ...rest,
    name: v.name.trim(),
    target: targetOf(v),
    ...(v.delivery === 'firmware' ? { firmware_id } : {}),
  };
}

/** Whether the dry run can be asked yet: a firmware chosen (for firmware) and the target named. */
export function dryRunReady(v: RolloutFormValues): boolean {
  if (v.delivery === 'firmware' && !v.firmware_id) return false;
  return v.target === 'entity' || v.target === 'filter' || v.targetName !== '';
}

export type FormField =
  | 'name'
  | 'firmware_id'
  | 'target'
  | 'percents'
  | 'canary'
  | 'success_threshold_pct'
  | 'error_threshold_pct'
  | 'report_timeout_s'
  | 'max_in_flight'
  | 'soak_s'
  | 'jitter_s'
  | 'window'
  | 'form';

/**
 * The API's 400 details under the form's inputs: `target.query` under the target, `window.tz` under
 * the window, `percents.1` under the stages; anything else (a 409: no device to reach) on the form.
 */
export function formErrors(error: unknown): Partial<Record<FormField, string>> {
  if (!(error instanceof ApiError)) return { form: 'The rollout could not be created.' };
  const errors: Partial<Record<FormField, string>> = {};
  for (const [key, messages] of Object.entries(error.details ?? {})) {
    const first = key.split('.')[0] as FormField;
    const field: FormField = first in FIELD_SET ? first : 'form';
    errors[field] ??= messages[0];
  }
  if (Object.keys(errors).length === 0) errors.form = error.userMessage;
  return errors;
}

const FIELD_SET: Record<Exclude<FormField, 'form'>, true> = {
  name: true,
  firmware_id: true,
  target: true,
  percents: true,
  canary: true,
  success_threshold_pct: true,
  error_threshold_pct: true,
  report_timeout_s: true,
  max_in_flight: true,
  soak_s: true,
  jitter_s: true,
  window: true,
};
