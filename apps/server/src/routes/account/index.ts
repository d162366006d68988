import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AccountCreateRequestSchema,
  AccountResponseSchema,
  AccountSchema,
  AccountUpdateRequestSchema,
} from '@fleet/shared/schemas/account';
import { PageQuerySchema, StatusSchema, listOf, statusWith } from '@fleet/shared/schemas/list';
import { createAccount } from '../../domain/account/create-account.ts';
import { deleteAccount } from '../../domain/account/delete-account.ts';
import { getAccount } from '../../domain/account/get-account.ts';
import { listAccounts } from '../../domain/account/list-accounts.ts';
import { updateAccount } from '../../domain/account/update-account.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

const errors = ERROR_RESPONSES;

/** Accounts on the landlord's plain path (all entities) and the entity-scoped path. */
export async function accountRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['accounts'];
  const security = [{ bearer: [] }];

  for (const { prefix, params } of SCOPES) {
    const Scoped = z.object(params);
    const Named = Scoped.extend({ name: pathName() });
    const where = prefix ? 'of the entity' : 'of every entity (superadmins)';

    r.get(
      `${prefix}/account`,
      {
        schema: {
          tags,
          security,
          summary: `List accounts ${where}`,
          params: Scoped,
          querystring: PageQuerySchema,
          response: { 200: listOf(AccountSchema), ...errors },
        },
      },
      async (request) => listAccounts(deps.db, scopeOf(request, 'Entity'), request.query),
    );

    r.post(
      `${prefix}/account`,
      {
        schema: {
          tags,
          security,
          summary: `Create an account ${where}`,
          params: Scoped,
          body: AccountCreateRequestSchema,
          response: { 201: statusWith(AccountSchema), ...errors },
        },
      },
      async (request, reply) => {
        const data = await createAccount(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Entity'),
          request.body.document,
        );
        return reply.code(201).send({ status: 'Account created', data });
      },
    );

    r.get(
      `${prefix}/account/:name`,
      {
        schema: {
          tags,
          security,
          summary: `An account ${where}`,
          params: Named,
          response: { 200: AccountResponseSchema, ...errors },
        },
      },
      async (request) => ({
        data: await getAccount(deps.db, request.params.name, scopeOf(request, 'Account')),
      }),
    );

    r.put(
      `${prefix}/account/:name`,
      {
        schema: {
          tags,
          security,
          summary: `Change an account ${where}`,
          params: Named,
          body: AccountUpdateRequestSchema,
          response: { 200: statusWith(AccountSchema), ...errors },
        },
      },
      async (request) => {
        const scope = scopeOf(request, 'Account');
        const data = await updateAccount(
          deps,
          auditContext(request, deps),
          request.auth,
          scope,
          request.params.name,
          request.body.operator.$set,
        );
        return { status: 'Account saved', data };
      },
    );

    r.delete(
      `${prefix}/account/:name`,
      {
        schema: {
          tags,
          security,
          summary: `Delete an account ${where}`,
          params: Named,
          response: { 200: StatusSchema, ...errors },
        },
      },
      async (request) => {
        await deleteAccount(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Account'),
          request.params.name,
        );
        return { status: 'Account deleted' };
      },
    );
  }
}
