import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AlertCountsSchema,
  AlertListQuerySchema,
  AlertPageSchema,
  AlertSchema,
  LandlordAlertListQuerySchema,
} from '@fleet/shared/schemas/alert';
import { statusWith } from '@fleet/shared/schemas/list';
import { changeAlert } from '../../domain/alert/change-alert.ts';
import { countAlerts } from '../../domain/alert/count-alerts.ts';
import { listAlerts } from '../../domain/alert/list-alerts.ts';
import type { Deps } from '../../domain/deps.ts';
import type { Alerts } from '../../plugins/alerts.ts';
import { assertLandlord, bearerToken } from '../../plugins/auth.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';
import { alertRuleRoutes } from './rules.ts';

const tags = ['alerts'];
const security = [{ bearer: [] }];
const Entity = z.object({ entity: pathName() });
const Id = Entity.extend({ id: pathName() });

/** `tenant/{entity}/alerts…` and the rules: every path answers another entity's objects 404. */
export async function alertRoutes(app: FastifyInstance, deps: Deps, alerts: Alerts) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const entityOf = (request: Parameters<typeof scopeOf>[0]) => scopeOf(request, 'Alert')!;

  r.get(
    '/tenant/:entity/alerts',
    {
      schema: {
        tags,
        security,
        summary:
          "The entity's alerts, newest raised first, filtered by status (open: active and acknowledged), severity, kind, device",
        params: Entity,
        querystring: AlertListQuerySchema,
        response: { 200: AlertPageSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => listAlerts(deps.db, entityOf(request), request.query),
  );

  r.get(
    '/alerts',
    {
      schema: {
        tags,
        security,
        summary: "Every entity's alerts (superadmins), newest raised first; `entity` narrows them to one",
        querystring: LandlordAlertListQuerySchema,
        response: { 200: AlertPageSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      assertLandlord(request.auth);
      return listAlerts(deps.db, null, request.query);
    },
  );

  r.get(
    '/tenant/:entity/alerts/count',
    {
      schema: {
        tags,
        security,
        summary: "The entity's active and acknowledged alerts",
        params: Entity,
        response: { 200: AlertCountsSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => countAlerts(deps.db, entityOf(request)),
  );

  r.get(
    '/tenant/:entity/alerts/events',
    {
      schema: {
        tags,
        security,
        summary:
          'Server-Sent Events: `count` ({active, acknowledged}) now and after every change, from any instance; ends when the right it was opened with lapses',
        params: Entity,
        response: {
          200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const entity = entityOf(request);
      reply.hijack();
      const unwatch = deps.live.watch({ token: bearerToken(request)!, claims: request.auth, entity }, () =>
        reply.raw.end(),
      );
      reply.raw.once('close', unwatch);
      if (reply.raw.destroyed) return unwatch();
      await alerts.streams.open(reply.raw, entity);
    },
  );

  for (const change of ['acknowledge', 'clear'] as const) {
    r.post(
      `/tenant/:entity/alerts/:id/${change}`,
      {
        schema: {
          tags,
          security,
          summary:
            change === 'acknowledge'
              ? 'Acknowledges an active alert (who and when are kept)'
              : 'Clears an open alert by hand; it is kept as history',
          params: Id,
          response: { 200: statusWith(AlertSchema), ...ERROR_RESPONSES },
        },
      },
      async (request) => {
        const entity = entityOf(request);
        const ctx = auditContext(request, deps);
        const by = ctx.actor.name ?? request.auth.sub;
        const data = await changeAlert(deps.db, deps.bus, ctx, entity, request.params.id, change, by);
        return { status: 'success', data };
      },
    );
  }

  await alertRuleRoutes(app, deps);
}
