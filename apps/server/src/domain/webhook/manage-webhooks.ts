import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  WEBHOOK_TEST_EVENT,
  type Webhook,
  type WebhookCreateSchema,
  type WebhookUpdateSchema,
} from '@fleet/shared/schemas/webhook';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.ts';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema/webhooks.ts';
import { notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { UUID } from '../alert/rule-scope.ts';
import { presentDelivery, presentWebhook } from './present-webhook.ts';
import { newWebhookSecret } from './signature.ts';

type WithSecret = Webhook & { secret: string };
const target = (name: string) => ({ type: 'webhook', name }) as const;

/** The entity's webhook by id, locked for a change; another entity's or a malformed id is 404. */
async function findWebhook(db: Executor, entity: string, id: string) {
  if (!UUID.test(id)) throw notFound('Webhook');
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.entity, entity)))
    .for('update');
  if (!row) throw notFound('Webhook');
  return row;
}

export async function listWebhooks(db: Db, entity: string) {
  const rows = await db.select().from(webhooks).where(eq(webhooks.entity, entity)).orderBy(asc(webhooks.created_at));
  return { data: rows.map(presentWebhook), total: rows.length };
}

/** Creates a webhook with a new secret, answered this once; audited without the secret. */
export async function createWebhook(
  db: Db,
  ctx: AuditContext,
  entity: string,
  body: z.output<typeof WebhookCreateSchema>,
): Promise<WithSecret> {
  const entry = { action: 'webhook.create', entity, target: { type: 'webhook', name: null } } as const;
  const complete = ({ secret: _secret, ...after }: WithSecret) => ({ after, target: target(after.id) });
  return audited(db, ctx, { ...entry, complete }, async (tx) => {
    const [row] = await tx
      .insert(webhooks)
      .values({ ...body.document, entity, secret: newWebhookSecret() })
      .returning();
    return { ...presentWebhook(row!), secret: row!.secret };
  });
}

/** Changes a webhook; turning it on again clears its failures and the disabled notice. */
export async function updateWebhook(
  db: Db,
  ctx: AuditContext,
  entity: string,
  id: string,
  body: z.output<typeof WebhookUpdateSchema>,
): Promise<Webhook> {
  let before: Webhook | undefined;
  const complete = (after: Webhook) => ({ before, after });
  return audited(db, ctx, { action: 'webhook.update', entity, target: target(id), complete }, async (tx) => {
    const current = await findWebhook(tx, entity, id);
    before = presentWebhook(current);
    const set = body.operator.$set;
    const reenabled = set.enabled === true && !current.enabled;
    const fresh = { consecutive_failures: 0, failing_since: null, disabled_at: null, disabled_reason: null };
    const [row] = await tx
      .update(webhooks)
      .set({ ...set, ...(reenabled ? fresh : {}), updated_at: sql`now()` })
      .where(eq(webhooks.id, current.id))
      .returning();
    return presentWebhook(row!);
  });
}

/** A new secret, answered once; the old one stops signing at once. */
export async function rotateSecret(db: Db, ctx: AuditContext, entity: string, id: string): Promise<WithSecret> {
  return audited(db, ctx, { action: 'webhook.rotate', entity, target: target(id) }, async (tx) => {
    const current = await findWebhook(tx, entity, id);
    const [row] = await tx
      .update(webhooks)
      .set({ secret: newWebhookSecret(), updated_at: sql`now()` })
      .where(eq(webhooks.id, current.id))
      .returning();
    return { ...presentWebhook(row!), secret: row!.secret };
  });
}

/** Deletes a webhook with its queue and log. */
export async function deleteWebhook(db: Db, ctx: AuditContext, entity: string, id: string): Promise<void> {
  const complete = (before: Webhook) => ({ before });
  await audited(db, ctx, { action: 'webhook.delete', entity, target: target(id), complete }, async (tx) => {
    const current = await findWebhook(tx, entity, id);
    await tx.delete(webhooks).where(eq(webhooks.id, current.id));
    return presentWebhook(current);
  });
}

/** Queues a `webhook.test` event for this webhook alone (delivered even when it is turned off, tried once). */
export async function queueTest(db: Db, entity: string, id: string) {
  return db.transaction(async (tx) => {
    const hook = await findWebhook(tx, entity, id);
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({
      id: eventId,
      type: WEBHOOK_TEST_EVENT,
      entity,
      occurred_at: new Date().toISOString(),
      data: { webhook: hook.id, message: 'A test event sent from Fleet Console' },
    });
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({ webhook_id: hook.id, entity, event_id: eventId, event_type: WEBHOOK_TEST_EVENT, body })
      .returning();
    return presentDelivery(row!, []);
  });
}

/** The webhook's deliveries, newest first, each with its attempts. */
export async function listDeliveries(db: Db, entity: string, id: string, page: { limit: number; offset: number }) {
  const hook = await findWebhook(db, entity, id);
  const where = eq(webhookDeliveries.webhook_id, hook.id);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(where);
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.delivery_id, ids))
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  const data = rows.map((r) =>
    presentDelivery(
      r,
      attempts.filter((a) => a.delivery_id === r.id),
    ),
  );
  return { data, total };
}
