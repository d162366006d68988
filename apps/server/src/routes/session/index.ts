import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { LoginRequestSchema, RefreshResponseSchema } from '@fleet/shared/schemas/session';
import { LoginOrChallengeSchema } from '@fleet/shared/schemas/two-factor';
import { login } from '../../domain/session/login.ts';
import { logout } from '../../domain/session/logout.ts';
import { refreshSession } from '../../domain/session/refresh-session.ts';
import { unauthorized } from '../../lib/http-error.ts';
import { bearerToken } from '../../plugins/auth.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { twoFactorRoutes } from './two-factor.ts';

/** POST login, refresh (refresh token as bearer) and logout (revokes the token's family). */
export async function sessionRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['session'];

  r.post(
    '/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Sign in with name and password (an account with a second factor gets a challenge: docs/two-factor.md)',
        body: LoginRequestSchema,
        response: { 200: LoginOrChallengeSchema, 400: ErrorInfoSchema, 401: ErrorInfoSchema, 429: ErrorInfoSchema },
      },
    },
    async (request) => login(deps, request.body, auditContext(request, deps)),
  );

  r.post(
    '/refresh',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Exchange a refresh token (sent as bearer) for a new pair',
        security: [{ bearer: [] }],
        response: { 200: RefreshResponseSchema, 401: ErrorInfoSchema },
      },
    },
    async (request) => {
      const token = bearerToken(request);
      if (!token) throw unauthorized('Missing refresh token');
      return refreshSession(deps, token, auditContext(request, deps));
    },
  );

  r.post(
    '/logout',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'End the session of the token sent as bearer (its refresh or its access token)',
        security: [{ bearer: [] }],
        response: { 204: z.null().describe('Signed out (also for an unknown token)') },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      if (token) await logout(deps, token, auditContext(request, deps));
      return reply.code(204).send(null);
    },
  );

  await twoFactorRoutes(app, deps);
}
