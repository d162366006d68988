import type { Webhook, WebhookDelivery } from '@fleet/shared/schemas/webhook';
import type { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A webhook as the API answers it: never its secret. */
export function presentWebhook(row: typeof webhooks.$inferSelect): Webhook {
  const { secret: _secret, ...rest } = row;
  return {
    ...rest,
    failing_since: iso(row.failing_since),
    disabled_at: iso(row.disabled_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A delivery with its attempts, for the log. */
export function presentDelivery(
  row: typeof webhookDeliveries.$inferSelect,
  log: Array<typeof webhookAttempts.$inferSelect>,
): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    created_at: row.created_at.toISOString(),
    delivered_at: iso(row.delivered_at),
    log: log.map((a) => ({
      attempt: a.attempt,
      at: a.at.toISOString(),
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
    })),
  };
}
