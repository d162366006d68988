import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { PageQuerySchema, StatusSchema, listOf, statusWith, type PageQuery } from '@fleet/shared/schemas/list';
import type { AuditContext } from '../../domain/audit/audit-context.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

/** The operations of one named resource of an entity (site, kiosk, group), from the domain. */
interface NamedOps<Item, Create, Set> {
  /** Path segment and words: `site`, 'Site', 'sites'. */
  path: string;
  what: string;
  tag: string;
  item: z.ZodType<Item>;
  create: z.ZodType<{ document: Create }>;
  update: z.ZodType<{ operator: { $set: Set } }>;
  list(actor: AccessClaims, entity: string, page: PageQuery): Promise<{ data: Item[]; total: number }>;
  get(actor: AccessClaims, entity: string, name: string): Promise<Item>;
  /** The changes are recorded in the audit log with the request's context. */
  add(ctx: AuditContext, actor: AccessClaims, entity: string, doc: Create): Promise<Item>;
  save(ctx: AuditContext, actor: AccessClaims, entity: string, name: string, set: Set): Promise<Item>;
  remove(ctx: AuditContext, actor: AccessClaims, entity: string, name: string): Promise<void>;
}

/** GET, POST, PUT and DELETE by name under `tenant/{entity}/{path}` (fleet §7), thin as routes are. */
export function namedCrudRoutes<Item, Create, Set>(app: FastifyInstance, deps: Deps, ops: NamedOps<Item, Create, Set>) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [ops.tag];
  const security = [{ bearer: [] }];
  const Scoped = z.object({ entity: pathName() });
  const Named = Scoped.extend({ name: pathName() });
  const base = `/tenant/:entity/${ops.path}`;
  const entityOf = (request: Parameters<typeof scopeOf>[0]) => scopeOf(request, ops.what) as string;
  const errors = ERROR_RESPONSES;

  r.get(
    base,
    {
      schema: {
        tags,
        security,
        summary: `List the entity's ${ops.tag} by name`,
        params: Scoped,
        querystring: PageQuerySchema,
        response: { 200: listOf(ops.item), ...errors },
      },
    },
    async (request) => ops.list(request.auth, entityOf(request), request.query),
  );
  r.post(
    base,
    {
      schema: {
        tags,
        security,
        summary: `Create a ${ops.path}`,
        params: Scoped,
        body: ops.create,
        response: { 201: statusWith(ops.item), ...errors },
      },
    },
    async (request, reply) => {
      const data = await ops.add(auditContext(request, deps), request.auth, entityOf(request), request.body.document);
      return reply.code(201).send({ status: `${ops.what} created`, data });
    },
  );
  r.get(
    `${base}/:name`,
    {
      schema: {
        tags,
        security,
        summary: `A ${ops.path}`,
        params: Named,
        response: { 200: z.object({ data: ops.item }), ...errors },
      },
    },
    async (request) => ({ data: await ops.get(request.auth, entityOf(request), request.params.name) }),
  );
  r.put(
    `${base}/:name`,
    {
      schema: {
        tags,
        security,
        summary: `Change a ${ops.path}`,
        params: Named,
        body: ops.update,
        response: { 200: statusWith(ops.item), ...errors },
      },
    },
    async (request) => {
      const { name } = request.params;
      const data = await ops.save(
        auditContext(request, deps),
        request.auth,
        entityOf(request),
        name,
        request.body.operator.$set,
      );
      return { status: `${ops.what} saved`, data };
    },
  );
  r.delete(
    `${base}/:name`,
    {
      schema: {
        tags,
        security,
        summary: `Delete a ${ops.path} nothing refers to`,
        params: Named,
        response: { 200: StatusSchema, ...errors },
      },
    },
    async (request) => {
      await ops.remove(auditContext(request, deps), request.auth, entityOf(request), request.params.name);
      return { status: `${ops.what} deleted` };
    },
  );
}
