import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountResponseSchema } from '@fleet/shared/schemas/account';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { getAccount } from '../../domain/account/get-account.ts';
import { assertEntityAccess, assertLandlord } from '../../plugins/auth.ts';

const NameParam = z.object({ name: z.string().min(1).max(64) });
const TenantNameParam = NameParam.extend({ entity: z.string().min(1).max(64) });
const errors = { 401: ErrorInfoSchema, 403: ErrorInfoSchema, 404: ErrorInfoSchema };

/** Account reads: the landlord's plain path across entities, and the entity-scoped path. */
export async function accountRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['accounts'];
  const security = [{ bearer: [] }];

  r.get(
    '/account/:name',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'An account of any entity (superadmins)',
        params: NameParam,
        response: { 200: AccountResponseSchema, ...errors },
      },
    },
    async (request) => {
      assertLandlord(request.auth);
      return { data: await getAccount(app.db, request.params.name) };
    },
  );

  r.get(
    '/tenant/:entity/account/:name',
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'An account of the entity',
        params: TenantNameParam,
        response: { 200: AccountResponseSchema, ...errors },
      },
    },
    async (request) => {
      assertEntityAccess(request.auth, request.params.entity, 'Account');
      return { data: await getAccount(app.db, request.params.name, request.params.entity) };
    },
  );
}
