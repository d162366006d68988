import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AllocationSchema } from '@fleet/shared/schemas/allocation';
import { PageQuerySchema, listOf } from '@fleet/shared/schemas/list';
import { listAllocations } from '../../domain/allocation/list-allocations.ts';
import type { Deps } from '../../domain/deps.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

/** A device's allocation history (who allocated it to whom, with which dataviews, and its return). */
export async function allocationRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/client-config',
    {
      config: { public: true },
      schema: {
        tags: ['kiosk manager'],
        summary: 'Where the console reaches the kiosk manager: KIOSK_MANAGER_URL, or null for this origin',
        response: { 200: z.object({ kiosk_manager_url: z.string().nullable() }) },
      },
    },
    async () => ({ kiosk_manager_url: deps.config.KIOSK_MANAGER_URL ?? null }),
  );
  for (const { prefix, params } of SCOPES) {
    r.get(
      `${prefix}/device/:name/allocations`,
      {
        schema: {
          tags: ['kiosk manager'],
          security: [{ bearer: [] }],
          summary: 'A device’s allocations, newest first, open and closed',
          params: z.object(params).extend({ name: pathName() }),
          querystring: PageQuerySchema,
          response: { 200: listOf(AllocationSchema), ...ERROR_RESPONSES },
        },
      },
      async (request) =>
        listAllocations(deps.db, request.auth, scopeOf(request, 'Device'), request.params.name, request.query),
    );
  }
}
