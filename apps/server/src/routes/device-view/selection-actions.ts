import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SelectionSchema, type Selection } from '@fleet/shared/schemas/device-view';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import {
  SelectionChoicesSchema,
  SelectionFirmwarePlanSchema,
  SelectionFirmwareRequestSchema,
  SelectionGroupPlanSchema,
  SelectionGroupRequestSchema,
  SelectionProvisionPlanSchema,
  SelectionProvisionRequestSchema,
} from '@fleet/shared/schemas/selection-actions';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Scope } from '../../domain/account/account-scope.ts';
import type { AuditContext } from '../../domain/audit/audit-context.ts';
import type { Deps } from '../../domain/deps.ts';
import { firmwareToSelection, planSelectionFirmware } from '../../domain/device-selection/firmware-to-selection.ts';
import { selectionChoices } from '../../domain/device-selection/selection-choices.ts';
import { groupSelection, planSelectionGroup } from '../../domain/device-selection/group-selection.ts';
import { planSelectionProvision, provisionSelection } from '../../domain/device-selection/provision-selection.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, SCOPES, scopeOf } from '../scope.ts';

const errors = { ...ERROR_RESPONSES, 503: ErrorInfoSchema };

/** What one action's handlers are given: the caller, its scope, the selection's id and the body. */
interface Call<B> {
  actor: AccessClaims;
  scope: Scope;
  id: string;
  body: B;
  request: FastifyRequest;
  audit: AuditContext;
}

interface Action<B extends z.ZodType, P extends z.ZodType> {
  path: string;
  what: string;
  body: B;
  plan: P;
  dryRun: (c: Call<z.infer<B>>) => Promise<z.infer<P>>;
  act: (c: Call<z.infer<B>>) => Promise<Selection & { plan: z.infer<P> }>;
}

/**
 * The actions on a counted selection beyond commands and delete (issue 27): each has a dry run
 * (`…/{action}/plan`) that breaks the count down, then the action itself, answered at once (202).
 */
export async function selectionActionRoutes(app: FastifyInstance, deps: Deps) {
  const security = [{ bearer: [] }];
  const tags = ['device selections'];
  /** Where devices download from: PUBLIC_URL, or the origin this request came in on. */
  const base = (request: FastifyRequest) => deps.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  const route = <B extends z.ZodType, P extends z.ZodType>(a: Action<B, P>) => {
    for (const { prefix, params } of SCOPES) {
      const ById = z.object(params).extend({ id: z.uuid() });
      const where = prefix ? 'of the entity' : 'of the landlord’s own list';
      // Registered untyped (a generic body defeats the type provider); the schemas still validate.
      const call = (request: FastifyRequest): Call<z.infer<B>> => ({
        actor: request.auth,
        scope: scopeOf(request, 'Device'),
        id: (request.params as { id: string }).id,
        body: request.body as z.infer<B>,
        request,
        audit: auditContext(request, deps),
      });
      app.post(
        `${prefix}/device-selection/:id/${a.path}/plan`,
        {
          schema: {
            tags,
            security,
            summary: `Dry run of ${a.what} on the selection ${where}: how many it acts on, how many are skipped and why`,
            params: ById,
            body: a.body,
            response: { 200: z.object({ data: a.plan }), ...errors },
          },
        },
        async (request) => ({ data: await a.dryRun(call(request)) }),
      );
      app.post(
        `${prefix}/device-selection/:id/${a.path}`,
        {
          schema: {
            tags,
            security,
            summary: `${a.what} on exactly the selection's devices ${where}, in batches; answers at once`,
            params: ById,
            body: a.body,
            response: { 202: z.object({ data: SelectionSchema.extend({ plan: a.plan }) }), ...errors },
          },
        },
        async (request, reply) => reply.code(202).send({ data: await a.act(call(request)) }),
      );
    }
  };

  for (const { prefix, params } of SCOPES) {
    app.get(
      `${prefix}/device-selection/:id/choices`,
      {
        schema: {
          tags,
          security,
          summary: `What the selection's firmware and group actions may name ${prefix ? 'in the entity' : 'in the entities of its devices'}: firmware of every level, groups`,
          params: z.object(params).extend({ id: z.uuid() }),
          response: { 200: z.object({ data: SelectionChoicesSchema }), ...errors },
        },
      },
      async (request) => {
        const { id } = request.params as { id: string };
        return { data: await selectionChoices(deps.db, scopeOf(request, 'Device'), request.auth, id) };
      },
    );
  }

  route({
    path: 'firmware',
    what: 'a firmware update',
    body: SelectionFirmwareRequestSchema,
    plan: SelectionFirmwarePlanSchema,
    dryRun: (c) => planSelectionFirmware(deps.db, c.scope, c.actor, c.id, c.body),
    act: (c) =>
      firmwareToSelection(deps, app.selections, c.audit, c.actor, c.scope, c.id, { ...c.body, base: base(c.request) }),
  });

  route({
    path: 'group',
    what: 'putting into a group',
    body: SelectionGroupRequestSchema,
    plan: SelectionGroupPlanSchema,
    dryRun: (c) => planSelectionGroup(deps.db, c.scope, c.actor, c.id, c.body),
    act: (c) => groupSelection(deps.db, app.selections, c.audit, c.actor, c.scope, c.id, c.body),
  });

  route({
    path: 'provision',
    what: 'provisioning',
    body: SelectionProvisionRequestSchema,
    plan: SelectionProvisionPlanSchema,
    dryRun: (c) => planSelectionProvision(deps.db, c.scope, c.actor, c.id),
    act: (c) => provisionSelection(deps.db, app.selections, c.audit, c.actor, c.scope, c.id, base(c.request)),
  });
}
