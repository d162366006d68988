import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { LoginResponseSchema } from '@fleet/shared/schemas/session';
import {
  SsoExchangeRequestSchema,
  SsoProviderListSchema,
  SsoProviderRequestSchema,
  SsoProviderResponseSchema,
} from '@fleet/shared/schemas/sso';
import type { Deps } from '../../domain/deps.ts';
import { endSessionUrl } from '../../domain/sso/end-session.ts';
import { exchangeSsoCode, finishSso, startSso } from '../../domain/sso/sso-flow.ts';
import {
  deleteEntityProvider,
  getEntityProvider,
  listProviders,
  putEntityProvider,
} from '../../domain/sso/sso-providers.ts';
import { HttpError } from '../../lib/http-error.ts';
import { assertLandlord } from '../../plugins/auth.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName } from '../scope.ts';

/** Where the console lands after the provider: a page of the console, never tokens in the URL. */
const CONSOLE_CALLBACK = '/auth/sso';
/** Where a provider's end-session sends the browser back to. */
const LOGIN_PAGE = '/auth/login';

/**
 * Single sign-on with OpenID Connect (docs/sso.md): the public sign-in flow (providers, start,
 * callback, exchange) and the superadmin's per-entity provider settings.
 */
export async function ssoRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sso'];
  const publicUrl = (request: FastifyRequest, path: string) =>
    new URL(path, deps.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).toString();
  const callbackUri = (request: FastifyRequest) => publicUrl(request, '/api/v1/sso/callback');

  r.get(
    '/sso/providers',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The identity providers the login page offers',
        response: { 200: SsoProviderListSchema },
      },
    },
    async () => ({ data: await listProviders(deps) }),
  );

  r.get(
    '/sso/:id/start',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Start a sign-in: redirects to the provider's login page",
        params: z.object({ id: pathName() }),
        querystring: z.object({ redirect: z.string().max(2048).optional() }),
        response: { 302: z.null(), 404: ErrorInfoSchema, 502: ErrorInfoSchema },
      },
    },
    async (request, reply) => {
      const url = await startSso(deps, request.params.id, {
        redirectUri: callbackUri(request),
        returnTo: request.query.redirect,
      });
      return reply.redirect(url, 302);
    },
  );

  r.get(
    '/sso/callback',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "The provider's redirect: finishes the sign-in and sends the console a one-time code",
        querystring: z.object({
          state: z.string().max(256).optional(),
          code: z.string().max(4096).optional(),
          error: z.string().max(256).optional(),
        }),
        response: { 302: z.null() },
      },
    },
    async (request, reply) => {
      const to = new URLSearchParams();
      try {
        const done = await finishSso(deps, request.query, auditContext(request, deps));
        to.set('code', done.code);
        if (done.returnTo) to.set('redirect', done.returnTo);
        // The console remembers it to offer the provider's sign-out with its own.
        to.set('provider', done.provider);
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        to.set('error', err.userMessage);
      }
      return reply.redirect(`${CONSOLE_CALLBACK}?${to}`, 302);
    },
  );

  r.get(
    '/sso/:id/end-session',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          "After the console's sign-out: redirects to the provider's end-session endpoint, or to the login page when it has none",
        params: z.object({ id: pathName() }),
        response: { 302: z.null(), 404: ErrorInfoSchema },
      },
    },
    async (request, reply) =>
      reply.redirect(await endSessionUrl(deps, request.params.id, publicUrl(request, LOGIN_PAGE)), 302),
  );

  r.post(
    '/sso/exchange',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Exchange the callback's one-time code for the token pair",
        body: SsoExchangeRequestSchema,
        response: { 200: LoginResponseSchema, 400: ErrorInfoSchema },
      },
    },
    async (request) => exchangeSsoCode(deps, request.body.code),
  );

  const security = [{ bearer: [] }];
  const landlord = async (request: { auth: Parameters<typeof assertLandlord>[0] }) => assertLandlord(request.auth);
  const params = z.object({ entity: pathName() });

  r.get(
    '/tenant/:entity/sso',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: "An entity's identity provider (superadmin; the secret is never shown)",
        params,
        response: { 200: SsoProviderResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({ data: await getEntityProvider(deps, request.params.entity, callbackUri(request)) }),
  );

  r.put(
    '/tenant/:entity/sso',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: "Set an entity's identity provider (superadmin); leave client_secret out to keep it",
        params,
        body: SsoProviderRequestSchema,
        response: { 200: SsoProviderResponseSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      data: await putEntityProvider(
        deps,
        auditContext(request, deps),
        request.params.entity,
        request.body,
        callbackUri(request),
      ),
    }),
  );

  r.delete(
    '/tenant/:entity/sso',
    {
      preHandler: landlord,
      schema: {
        tags,
        security,
        summary: "Remove an entity's identity provider (superadmin)",
        params,
        response: { 204: z.null(), ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      await deleteEntityProvider(deps, auditContext(request, deps), request.params.entity);
      return reply.code(204).send(null);
    },
  );
}
