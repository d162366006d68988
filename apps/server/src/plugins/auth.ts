import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden, notFound, unauthorized } from '../lib/http-error.ts';
import type { AccessTokens } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: AccessTokens;
    /** preHandler: requires a valid access token and sets `request.auth`. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    auth: AccessClaims;
  }
}

/** The bearer credential of a request, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  return match?.[1];
}

export const isLandlord = (claims: AccessClaims) => claims.subtype === 'sadmin';

/** Throws unless the caller may act in `entity`: its own, or any for a landlord. Others get 404, never a hint. */
export function assertEntityAccess(claims: AccessClaims, entity: string, what = 'Entity'): void {
  if (!isLandlord(claims) && claims.entity !== entity) throw notFound(what);
}

/** Throws 403 unless the caller is a landlord (superadmin). */
export function assertLandlord(claims: AccessClaims): void {
  if (!isLandlord(claims)) throw forbidden('This path is for superadmins');
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { tokens: AccessTokens }) => {
  app.decorate('tokens', opts.tokens);
  app.decorateRequest('auth', null as unknown as AccessClaims);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Missing bearer token');
    const claims = await opts.tokens.verify(token);
    if (!claims) throw unauthorized('Invalid or expired access token');
    request.auth = claims;
  });
});
