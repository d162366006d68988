import { z } from 'zod';
import { email } from '../validation.ts';
import { cappedListOf } from './list.ts';

/**
 * The kinds of alert rule (issue 29; docs/alerts.md). `threshold` means: minutes of silence for
 * `unresponsive` (20 at least, the spec's rule), the battery percentage at or below which a device
 * that is not charging alerts for `battery_low`; the other kinds take none. The event kinds
 * (EVENT_ALERT_KINDS) hold from a failure until the next success of the same thing.
 */
export const ALERT_RULE_KINDS = [
  'unresponsive',
  'battery_low',
  'device_error',
  'charging_stopped',
  'command_failed',
  'firmware_failed',
  'provisioning_failed',
  'rollout_paused',
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];
/** Kinds raised by an outcome (a failure) rather than by what a device's row shows. */
export const EVENT_ALERT_KINDS = [
  'command_failed',
  'firmware_failed',
  'provisioning_failed',
  'rollout_paused',
] as const;
/** The kinds whose rules take a threshold. */
export const THRESHOLD_ALERT_KINDS: readonly AlertRuleKind[] = ['unresponsive', 'battery_low'];
export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
/** `view`: a shared saved view of the device list, by name (its filter picks the devices). */
export const ALERT_SCOPES = ['entity', 'site', 'group', 'view'] as const;
export type AlertScope = (typeof ALERT_SCOPES)[number];
/** pending: the condition holds but its start delay has not passed; never listed as an alert. */
export const ALERT_STATUSES = ['active', 'acknowledged', 'cleared'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The shortest silence an unresponsive rule may name: the spec's 20 minutes. */
export const MIN_UNRESPONSIVE_MINUTES = 20;
/** The longest start or clear delay: a day. */
export const MAX_ALERT_DELAY_S = 86_400;

/** The most addresses one rule e-mails. */
export const MAX_ALERT_EMAILS = 20;

const delay = z.number().int().min(0).max(MAX_ALERT_DELAY_S);

/** A rule's fields as a change names them: no defaults, so a change sets only what it names. */
const RuleChangeSchema = z.object({
  name: z.string().trim().min(1).max(80),
  kind: z.enum(ALERT_RULE_KINDS),
  scope: z.enum(ALERT_SCOPES),
  /** The site, group or shared view name for those scopes; null for the whole entity. */
  scope_name: z.string().trim().min(1).max(128).nullable(),
  threshold: z.number().int().min(0).max(100_000).nullable(),
  start_delay_s: delay,
  clear_delay_s: delay,
  severity: z.enum(ALERT_SEVERITIES),
  enabled: z.boolean(),
  /** Who is e-mailed when this rule raises alerts: one e-mail per burst (docs/alerts.md). */
  email_to: z.array(email()).max(MAX_ALERT_EMAILS, `At most ${MAX_ALERT_EMAILS} addresses`),
  /** Whether this rule's alerts go to the entity's webhooks subscribed to alert events. */
  webhook: z.boolean(),
});

const RuleFieldsSchema = RuleChangeSchema.extend({
  scope: RuleChangeSchema.shape.scope.default('entity'),
  scope_name: RuleChangeSchema.shape.scope_name.default(null),
  threshold: RuleChangeSchema.shape.threshold.default(null),
  start_delay_s: delay.default(0),
  clear_delay_s: delay.default(0),
  severity: RuleChangeSchema.shape.severity.default('warning'),
  enabled: z.boolean().default(true),
  email_to: RuleChangeSchema.shape.email_to.default([]),
  webhook: z.boolean().default(false),
});

type RuleFields = z.infer<typeof RuleFieldsSchema>;

/** The rule's fields fit together: each kind's threshold, a scope name exactly when scoped. */
function checkRule(rule: Partial<RuleFields>, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (rule.kind === 'unresponsive' && (rule.threshold ?? 0) < MIN_UNRESPONSIVE_MINUTES)
    issue('threshold', `An unresponsive rule needs ${MIN_UNRESPONSIVE_MINUTES} minutes or more`);
  if (rule.kind === 'battery_low' && (rule.threshold === null || rule.threshold === undefined || rule.threshold > 100))
    issue('threshold', 'A battery rule needs a level from 0 to 100');
  if (
    rule.kind &&
    !THRESHOLD_ALERT_KINDS.includes(rule.kind) &&
    rule.threshold !== null &&
    rule.threshold !== undefined
  )
    issue('threshold', 'This kind of rule takes no threshold');
  if (rule.kind === 'rollout_paused' && rule.scope !== undefined && rule.scope !== 'entity')
    issue('scope', 'A rollout rule watches the whole entity');
  if (
    rule.scope !== undefined &&
    (rule.scope === 'entity') !== (rule.scope_name === null || rule.scope_name === undefined)
  )
    issue('scope_name', rule.scope === 'entity' ? 'The whole entity takes no scope name' : `Name the ${rule.scope}`);
}

/** `POST alert-rules {document}`. */
export const AlertRuleCreateSchema = z.object({ document: RuleFieldsSchema.superRefine(checkRule) });
/** `PUT alert-rules/{id} {operator: {$set}}`: the kind stays; the merged rule is checked again. */
export const AlertRuleUpdateSchema = z.object({
  operator: z.object({ $set: RuleChangeSchema.omit({ kind: true }).partial().strict() }),
});
export const checkAlertRule = (rule: RuleFields) => RuleFieldsSchema.superRefine(checkRule).safeParse(rule);

export const AlertRuleSchema = RuleFieldsSchema.extend({
  id: z.string(),
  entity: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AlertRule = z.infer<typeof AlertRuleSchema>;

export const AlertSchema = z.object({
  id: z.string(),
  entity: z.string(),
  rule_id: z.string(),
  rule_name: z.string(),
  kind: z.enum(ALERT_RULE_KINDS),
  severity: z.enum(ALERT_SEVERITIES),
  /** The device the alert is about; null for a rollout's alert. */
  device: z.string().nullable(),
  /** The rollout a `rollout_paused` alert is about (its id); null for a device's alert. */
  rollout: z.string().nullable(),
  status: z.enum(ALERT_STATUSES),
  /** When the condition began to hold, and when the alert was raised (after the start delay). */
  condition_since: z.string(),
  raised_at: z.string(),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  cleared_at: z.string().nullable(),
  /** `condition` when it ended by itself; otherwise who cleared it by hand. */
  cleared_by: z.string().nullable(),
  /** What the device showed when the alert was raised (battery, state, last seen), or the failure's outcome. */
  detail: z.record(z.string(), z.unknown()),
});
export type Alert = z.infer<typeof AlertSchema>;

/** `GET alerts`: newest raised first; `open` is active and acknowledged together. */
export const AlertListQuerySchema = z.object({
  status: z.enum([...ALERT_STATUSES, 'open']).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  kind: z.enum(ALERT_RULE_KINDS).optional(),
  device: z.string().trim().min(1).max(128).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
/** `GET /alerts` (superadmins): every entity's alerts, `entity` narrowing them to one. */
export const LandlordAlertListQuerySchema = AlertListQuerySchema.extend({
  entity: z.string().trim().min(1).max(128).optional(),
});
export type AlertListQuery = z.infer<typeof LandlordAlertListQuerySchema>;

/** A page of alerts, its total capped (cappedListOf). */
export const AlertPageSchema = cappedListOf(AlertSchema, 'alerts');
export type AlertPage = z.infer<typeof AlertPageSchema>;

/** The header's figures, and the `count` event of the alert stream. */
export const AlertCountsSchema = z.object({ active: z.number().int(), acknowledged: z.number().int() });
export type AlertCounts = z.infer<typeof AlertCountsSchema>;
