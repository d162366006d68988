import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import {
  WebhookCreateSchema,
  WebhookDeliveryQuerySchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from '@fleet/shared/schemas/webhook';
import type { Deps } from '../../domain/deps.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  queueTest,
  rotateSecret,
  updateWebhook,
} from '../../domain/webhook/manage-webhooks.ts';
import { assertMayManageWebhooks } from '../../domain/webhook/webhook-policy.ts';
import type { DeliveryWorker } from '../../plugins/delivery.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

const tags = ['webhooks'];
const security = [{ bearer: [] }];
const Entity = z.object({ entity: pathName() });
const Id = Entity.extend({ id: pathName() });

/** `tenant/{entity}/webhooks…` (docs/webhooks.md): admins with all access and superadmins only. */
export async function webhookRoutes(app: FastifyInstance, deps: Deps, worker: DeliveryWorker | undefined) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const entityOf = (request: Parameters<typeof scopeOf>[0]) => {
    const entity = scopeOf(request, 'Webhook')!;
    assertMayManageWebhooks(request.auth);
    return entity;
  };
  const base = '/tenant/:entity/webhooks';
  const answers = <T extends object>(ok: T) => ({ ...ok, ...ERROR_RESPONSES });

  r.get(
    base,
    {
      schema: {
        tags,
        security,
        summary: "The entity's webhooks (never their secrets)",
        params: Entity,
        response: answers({ 200: listOf(WebhookSchema) }),
      },
    },
    async (request) => listWebhooks(deps.db, entityOf(request)),
  );

  r.post(
    base,
    {
      schema: {
        tags,
        security,
        summary: 'Creates a webhook; the answer carries its secret, shown this once',
        params: Entity,
        body: WebhookCreateSchema,
        response: answers({ 201: statusWith(WebhookWithSecretSchema) }),
      },
    },
    async (request, reply) => {
      const entity = entityOf(request);
      const data = await createWebhook(deps.db, auditContext(request, deps), entity, request.body);
      return reply.code(201).send({ status: 'success', data });
    },
  );

  r.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Changes a webhook; turning it on again clears its failures',
        params: Id,
        body: WebhookUpdateSchema,
        response: answers({ 200: statusWith(WebhookSchema) }),
      },
    },
    async (request) => {
      const entity = entityOf(request);
      const data = await updateWebhook(deps.db, auditContext(request, deps), entity, request.params.id, request.body);
      return { status: 'success', data };
    },
  );

  r.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Deletes a webhook with its queue and log',
        params: Id,
        response: answers({ 200: StatusSchema }),
      },
    },
    async (request) => {
      const entity = entityOf(request);
      await deleteWebhook(deps.db, auditContext(request, deps), entity, request.params.id);
      return { status: 'success' };
    },
  );

  r.post(
    `${base}/:id/rotate-secret`,
    {
      schema: {
        tags,
        security,
        summary: 'Replaces the secret; the answer carries the new one, shown this once',
        params: Id,
        response: answers({ 200: statusWith(WebhookWithSecretSchema) }),
      },
    },
    async (request) => {
      const entity = entityOf(request);
      const data = await rotateSecret(deps.db, auditContext(request, deps), entity, request.params.id);
      return { status: 'success', data };
    },
  );

  r.post(
    `${base}/:id/test`,
    {
      schema: {
        tags,
        security,
        summary: 'Sends a `webhook.test` event now (tried once); its outcome shows in the log',
        params: Id,
        response: answers({ 202: statusWith(WebhookDeliverySchema) }),
      },
    },
    async (request, reply) => {
      const data = await queueTest(deps.db, entityOf(request), request.params.id);
      void worker?.tick().catch((err: unknown) => request.log.error({ err }, 'delivery: a pass failed'));
      return reply.code(202).send({ status: 'success', data });
    },
  );

  r.get(
    `${base}/:id/deliveries`,
    {
      schema: {
        tags,
        security,
        summary: 'The delivery log: newest first, each with its attempts',
        params: Id,
        querystring: WebhookDeliveryQuerySchema,
        response: answers({ 200: listOf(WebhookDeliverySchema) }),
      },
    },
    async (request) => listDeliveries(deps.db, entityOf(request), request.params.id, request.query),
  );
}
