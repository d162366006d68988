import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DataviewCreateRequestSchema,
  DataviewFacetsSchema,
  DataviewListQuerySchema,
  DataviewSchema,
  DataviewUpdateRequestSchema,
  DataviewWithContentSchema,
} from '@fleet/shared/schemas/dataview';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import type { Deps } from '../../domain/deps.ts';
import { createDataview } from '../../domain/dataview/create-dataview.ts';
import { deleteDataview } from '../../domain/dataview/delete-dataview.ts';
import { findDataview, presentWithContent } from '../../domain/dataview/dataview-scope.ts';
import { dataviewFacets, listDataviews } from '../../domain/dataview/list-dataviews.ts';
import { updateDataview } from '../../domain/dataview/update-dataview.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

const errors = { ...ERROR_RESPONSES, 413: ErrorInfoSchema };
/** Content may be 1000000 bytes; the envelope and JSON escaping need room beyond it. */
const BODY_LIMIT = 4 * 1_048_576;

/** Dataviews: the entity's own under `tenant/{entity}/dataview`, and the landlord's list across entities. */
export async function dataviewRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['dataviews'];
  const security = [{ bearer: [] }];
  const Scoped = z.object({ entity: pathName() });
  const Named = Scoped.extend({ name: pathName() });
  const entityOf = (request: Parameters<typeof scopeOf>[0]) => scopeOf(request, 'Dataview') as string;

  r.get(
    '/dataview',
    {
      schema: {
        tags,
        security,
        summary: 'List dataviews of every entity (superadmins), filtered and paged by the database; limit 0 is all',
        querystring: DataviewListQuerySchema,
        response: { 200: listOf(DataviewSchema), ...errors },
      },
    },
    async (request) => listDataviews(deps.db, request.auth, scopeOf(request), request.query),
  );

  r.get(
    '/dataview/facets',
    {
      schema: {
        tags,
        security,
        summary: 'Entities, owners and versions the landlord list can filter by',
        response: { 200: DataviewFacetsSchema, ...errors },
      },
    },
    async (request) => {
      scopeOf(request);
      return dataviewFacets(deps.db);
    },
  );

  r.get(
    '/tenant/:entity/dataview',
    {
      schema: {
        tags,
        security,
        summary: 'List the dataviews of the entity the caller may read',
        params: Scoped,
        querystring: DataviewListQuerySchema,
        response: { 200: listOf(DataviewSchema), ...errors },
      },
    },
    async (request) => listDataviews(deps.db, request.auth, entityOf(request), request.query),
  );

  r.post(
    '/tenant/:entity/dataview',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        security,
        summary: 'Add a dataview; empty content becomes the default content',
        params: Scoped,
        body: DataviewCreateRequestSchema,
        response: { 201: statusWith(DataviewWithContentSchema), ...errors },
      },
    },
    async (request, reply) => {
      const data = await createDataview(
        deps.db,
        auditContext(request, deps),
        request.auth,
        entityOf(request),
        request.body.document,
      );
      return reply.code(201).send({ status: 'Dataview saved', data });
    },
  );

  r.get(
    '/tenant/:entity/dataview/:name',
    {
      schema: {
        tags,
        security,
        summary: 'A dataview with its content',
        params: Named,
        response: { 200: z.object({ data: DataviewWithContentSchema }), ...errors },
      },
    },
    async (request) => ({
      data: presentWithContent(await findDataview(deps.db, request.auth, entityOf(request), request.params.name)),
    }),
  );

  r.put(
    '/tenant/:entity/dataview/:name',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        security,
        summary: 'Change a dataview (its fields, accounts or content)',
        params: Named,
        body: DataviewUpdateRequestSchema,
        response: { 200: statusWith(DataviewWithContentSchema), ...errors },
      },
    },
    async (request) => {
      const entity = entityOf(request);
      const data = await updateDataview(
        deps.db,
        auditContext(request, deps),
        request.auth,
        entity,
        request.params.name,
        request.body.operator.$set,
      );
      return { status: 'Dataview saved', data };
    },
  );

  r.delete(
    '/tenant/:entity/dataview/:name',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a dataview',
        params: Named,
        response: { 200: StatusSchema, ...errors },
      },
    },
    async (request) => {
      await deleteDataview(deps.db, auditContext(request, deps), request.auth, entityOf(request), request.params.name);
      return { status: 'Dataview deleted' };
    },
  );
}
