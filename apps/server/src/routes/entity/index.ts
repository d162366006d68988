import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccountSchema } from '@fleet/shared/schemas/account';
import { EntityCreateRequestSchema, EntitySchema, TenantSpecificRequestSchema } from '@fleet/shared/schemas/entity';
import { PageQuerySchema, StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import { listAccounts } from '../../domain/account/list-accounts.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { createEntity } from '../../domain/entity/create-entity.ts';
import { deleteEntity } from '../../domain/entity/delete-entity.ts';
import { getEntity, listEntities } from '../../domain/entity/list-entities.ts';
import { assertLandlord } from '../../plugins/auth.ts';
import { ERROR_RESPONSES, pathName } from '../scope.ts';

const errors = ERROR_RESPONSES;

/** Entities (tenants): the landlord's to list, create and delete. */
export async function entityRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['entities'];
  const security = [{ bearer: [] }];
  const landlord = async (request: { auth: Parameters<typeof assertLandlord>[0] }) => assertLandlord(request.auth);
  const Named = z.object({ name: pathName() });

  r.get(
    '/tenant',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: 'List entities',
        querystring: PageQuerySchema,
        response: { 200: listOf(EntitySchema), ...errors },
      },
    },
    async (request) => listEntities(deps.db, request.query),
  );

  r.post(
    '/tenant',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: 'Create an entity',
        body: EntityCreateRequestSchema,
        response: { 201: statusWith(EntitySchema), ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        status: 'Entity created',
        data: await createEntity(deps.db, auditContext(request, deps), request.body),
      }),
  );

  r.get(
    '/tenant/:name',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: 'An entity',
        params: Named,
        response: { 200: z.object({ data: EntitySchema }), ...errors },
      },
    },
    async (request) => ({ data: await getEntity(deps.db, request.params.name) }),
  );

  r.delete(
    '/tenant/:name',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: 'Delete an entity and everything in it',
        params: Named,
        response: { 200: StatusSchema, ...errors },
      },
    },
    async (request) => {
      await deleteEntity(deps, auditContext(request, deps), request.params.name);
      return { status: 'Entity deleted' };
    },
  );

  r.post(
    '/tenant/specific',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: 'What one entity holds of one kind (type entity: its record; type account: its accounts)',
        body: TenantSpecificRequestSchema,
        response: { 200: z.union([z.object({ data: EntitySchema }), listOf(AccountSchema)]), ...errors },
      },
    },
    async (request) => {
      const { type, endpoint } = request.body;
      const entity = await getEntity(deps.db, endpoint);
      if (type === 'entity') return { data: entity };
      return listAccounts(deps.db, entity.name, { limit: 0, offset: 0 });
    },
  );
}
