import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { StatusSchema } from '@fleet/shared/schemas/list';
import { GenerateTokenQuerySchema, GeneratedTokenSchema, TokenListSchema } from '@fleet/shared/schemas/token';
import type { Deps } from '../../domain/deps.ts';
import { generateToken, listTokens, revokeToken } from '../../domain/token/manage-tokens.ts';
import { assertLandlord } from '../../plugins/auth.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, SCOPES, pathName, scopeOf } from '../scope.ts';

const errors = ERROR_RESPONSES;

/**
 * Permanent API tokens of an account. Core §7 generates with a GET; the value is shown once and
 * only its hash is kept.
 */
export async function tokenRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tokens'];
  const security = [{ bearer: [] }];

  for (const { prefix, params } of SCOPES) {
    const Named = z.object(params).extend({ name: pathName() });

    r.get(
      `${prefix}/account/:name/permanent-token`,
      {
        schema: {
          tags,
          security,
          summary: 'Generate a permanent token',
          params: Named,
          querystring: GenerateTokenQuerySchema,
          response: { 200: GeneratedTokenSchema, ...errors },
        },
      },
      async (request) =>
        generateToken(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Account'),
          request.params.name,
          request.query.description,
        ),
    );

    r.get(
      `${prefix}/account/:name/tokens`,
      {
        schema: {
          tags,
          security,
          summary: "List an account's permanent tokens",
          params: Named,
          response: { 200: TokenListSchema, ...errors },
        },
      },
      async (request) => listTokens(deps, request.auth, scopeOf(request, 'Account'), request.params.name),
    );

    r.delete(
      `${prefix}/account/:name/token/:tokenHash`,
      {
        schema: {
          tags,
          security,
          summary: 'Revoke a permanent token',
          params: Named.extend({ tokenHash: pathName() }),
          response: { 200: StatusSchema, ...errors },
        },
      },
      async (request) => {
        const { name, tokenHash } = request.params;
        await revokeToken(
          deps,
          auditContext(request, deps),
          request.auth,
          scopeOf(request, 'Account'),
          name,
          tokenHash,
        );
        return { status: 'Token revoked' };
      },
    );
  }

  r.get(
    '/tenant/:entity/:account/permanent-token',
    {
      schema: {
        tags,
        security,
        summary: "Generate a permanent token for an entity's account (superadmins)",
        params: z.object({ entity: pathName(), account: pathName() }),
        querystring: GenerateTokenQuerySchema,
        response: { 200: GeneratedTokenSchema, ...errors },
      },
    },
    async (request) => {
      assertLandlord(request.auth);
      const { entity, account } = request.params;
      return generateToken(deps, auditContext(request, deps), request.auth, entity, account, request.query.description);
    },
  );
}
