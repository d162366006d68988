import { z } from 'zod';
import { description } from '../validation.ts';

/** The events a webhook may subscribe to (issue 29; docs/webhooks.md). */
export const WEBHOOK_EVENTS = [
  'alert.raised',
  'alert.acknowledged',
  'alert.cleared',
  'device.created',
  'device.deleted',
  'device.online',
  'device.offline',
  'command.succeeded',
  'command.failed',
  'firmware.succeeded',
  'firmware.failed',
  'provisioning.succeeded',
  'provisioning.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** What "Send test" sends; never subscribed to, always delivered to the webhook tested. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The header that carries `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Fleet-Signature';
/** A webhook is turned off after this many failed attempts in a row… */
export const WEBHOOK_DISABLE_AFTER_FAILURES = 50;
/** …or once every attempt has failed for this long (a day). */
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3600 * 1000;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** https anywhere, or http to this machine only (a receiver under test); no credentials in it. */
export const webhookUrl = () =>
  z
    .string()
    .trim()
    .max(2048, 'At most 2048 characters')
    .refine((value) => {
      try {
        const url = new URL(value);
        if (url.username || url.password) return false;
        return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
      } catch {
        return false;
      }
    }, 'An https URL (http only to localhost or 127.0.0.1), without credentials');

const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, 'Choose at least one event')
  .transform((list) => [...new Set(list)]);

const WebhookChangeSchema = z.object({
  url: webhookUrl(),
  description: description(),
  events,
  /** Turning a disabled webhook on again starts its failure count afresh. */
  enabled: z.boolean(),
});

/** `POST webhooks {document}`: the answer carries the secret, this once. */
export const WebhookCreateSchema = z.object({
  document: WebhookChangeSchema.extend({
    description: description().default(''),
    enabled: z.boolean().default(true),
  }).strict(),
});
/** `PUT webhooks/{id} {operator: {$set}}`. */
export const WebhookUpdateSchema = z.object({ operator: z.object({ $set: WebhookChangeSchema.partial().strict() }) });

export const WebhookSchema = z.object({
  id: z.string(),
  entity: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  consecutive_failures: z.number().int(),
  failing_since: z.string().nullable(),
  /** Set when the server turned it off after repeated failure (and why); null otherwise. */
  disabled_at: z.string().nullable(),
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof WebhookSchema>;
/** Creation and rotation answer the secret once; it is never shown again. */
export const WebhookWithSecretSchema = WebhookSchema.extend({ secret: z.string() });

export const WebhookAttemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export const WebhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_duration_ms: z.number().int().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  /** Every attempt, first first. */
  log: z.array(WebhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
