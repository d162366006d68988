import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SelectionSchema } from '@fleet/shared/schemas/device-view';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { SelectionFirmwarePlanSchema, SelectionFirmwareRequestSchema } from '@fleet/shared/schemas/selection-actions';
import type { Deps } from '../../domain/deps.ts';
import { firmwareToSelection, planSelectionFirmware } from '../../domain/device-selection/firmware-to-selection.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, SCOPES, scopeOf } from '../scope.ts';

const errors = { ...ERROR_RESPONSES, 503: ErrorInfoSchema };

/**
 * The actions on a counted selection beyond commands and delete (issue 27): each has a dry run
 * (`…/plan`) that breaks the count down, then the action itself, answered at once.
 */
export async function selectionActionRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ bearer: [] }];
  const tags = ['device selections'];
  const onError = (err: unknown, what: string) => app.log.error({ err }, `failed: ${what}`);
  /** Where devices download from: PUBLIC_URL, or the origin this request came in on. */
  const base = (request: FastifyRequest) => deps.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  for (const { prefix, params } of SCOPES) {
    const ById = z.object(params).extend({ id: z.uuid() });
    const where = prefix ? 'of the entity' : 'of the landlord’s own list';

    r.post(
      `${prefix}/device-selection/:id/firmware/plan`,
      {
        schema: {
          tags,
          security,
          summary: `Dry run of a firmware update on the selection ${where}: how many get it, how many are skipped and why`,
          params: ById,
          body: SelectionFirmwareRequestSchema,
          response: { 200: z.object({ data: SelectionFirmwarePlanSchema }), ...errors },
        },
      },
      async (request) => ({
        data: await planSelectionFirmware(
          deps.db,
          scopeOf(request, 'Device'),
          request.auth,
          request.params.id,
          request.body,
        ),
      }),
    );

    r.post(
      `${prefix}/device-selection/:id/firmware`,
      {
        schema: {
          tags,
          security,
          summary: `Update the firmware of the selection's devices of the firmware's type ${where}, in batches; answers at once`,
          params: ById,
          body: SelectionFirmwareRequestSchema,
          response: {
            202: z.object({ data: SelectionSchema.extend({ plan: SelectionFirmwarePlanSchema }) }),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const data = await firmwareToSelection(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Device'),
          request.params.id,
          { ...request.body, base: base(request) },
          onError,
        );
        return reply.code(202).send({ data });
      },
    );
  }
}
