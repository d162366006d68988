import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AlertRuleCreateSchema, AlertRuleSchema, AlertRuleUpdateSchema } from '@fleet/shared/schemas/alert';
import { StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import { assertMayChangeRules } from '../../domain/alert/alert-policy.ts';
import { createRule } from '../../domain/alert/create-rule.ts';
import { deleteRule } from '../../domain/alert/delete-rule.ts';
import { listRules } from '../../domain/alert/list-rules.ts';
import { updateRule } from '../../domain/alert/update-rule.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

const tags = ['alerts'];
const security = [{ bearer: [] }];
const Entity = z.object({ entity: pathName() });
const Id = Entity.extend({ id: pathName() });

/** `tenant/{entity}/alert-rules[/{id}]`: read by the entity, changed by its admins with all access. */
export async function alertRuleRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const entityOf = (request: Parameters<typeof scopeOf>[0]) => scopeOf(request, 'Alert rule')!;

  r.get(
    '/tenant/:entity/alert-rules',
    {
      schema: {
        tags,
        security,
        summary: "The entity's alert rules, by name",
        params: Entity,
        response: { 200: listOf(AlertRuleSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => listRules(deps.db, entityOf(request)),
  );

  r.post(
    '/tenant/:entity/alert-rules',
    {
      schema: {
        tags,
        security,
        summary: 'Creates an alert rule (admins with all access)',
        params: Entity,
        body: AlertRuleCreateSchema,
        response: { 201: statusWith(AlertRuleSchema), ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const entity = entityOf(request);
      assertMayChangeRules(request.auth);
      const data = await createRule(deps.db, auditContext(request, deps), entity, request.body);
      return reply.code(201).send({ status: 'success', data });
    },
  );

  r.put(
    '/tenant/:entity/alert-rules/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Changes an alert rule (not its kind); open alerts follow the new rule',
        params: Id,
        body: AlertRuleUpdateSchema,
        response: { 200: statusWith(AlertRuleSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = entityOf(request);
      assertMayChangeRules(request.auth);
      const data = await updateRule(deps.db, auditContext(request, deps), entity, request.params.id, request.body);
      return { status: 'success', data };
    },
  );

  r.delete(
    '/tenant/:entity/alert-rules/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Deletes an alert rule with its alerts',
        params: Id,
        response: { 200: StatusSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = entityOf(request);
      assertMayChangeRules(request.auth);
      await deleteRule(deps.db, deps.bus, auditContext(request, deps), entity, request.params.id);
      return { status: 'success' };
    },
  );
}
