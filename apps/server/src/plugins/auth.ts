import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isSuperadmin } from '@fleet/shared/access/rule';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden, notFound, unauthorized } from '../lib/http-error.ts';
import type { SessionGuard } from '../domain/session/session-guard.ts';
import type { PermanentTokenGuard } from '../domain/token/permanent-token-guard.ts';
import { PERMANENT_TOKEN_PREFIX, type AccessTokens } from '../lib/tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route authenticates nothing up front (sign-in, refresh, logout). */
    public?: boolean;
  }
  interface FastifyInstance {
    tokens: AccessTokens;
    /** Hook: requires a valid access token and sets `request.auth`; a no-op once it is set. */
    authenticate: (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
  }
  interface FastifyRequest {
    auth: AccessClaims;
    /**
     * The entity a superadmin acts inside: the `{entity}` of a `tenant/{entity}/…` path it called,
     * known to exist. Null for every other caller (their entity is `auth.entity`) and on plain
     * paths. What an audit record names as the entity a landlord's action touched.
     */
    actingEntity: string | null;
  }
}

/** The bearer credential of a request, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  return match?.[1];
}

/** Whether the caller is the landlord (a superadmin): the shared access rule's test, not a copy of it. */
export const isLandlord: (claims: AccessClaims) => boolean = isSuperadmin;

/** Throws unless the caller may act in `entity`: its own, or any for a landlord. Others get 404, never a hint. */
export function assertEntityAccess(claims: AccessClaims, entity: string, what = 'Entity'): void {
  if (!isLandlord(claims) && claims.entity !== entity) throw notFound(what);
}

/** Throws 403 unless the caller is a landlord (superadmin). */
export function assertLandlord(claims: AccessClaims): void {
  if (!isLandlord(claims)) throw forbidden('This path is for superadmins');
}

/**
 * The claims of a bearer credential: an access JWT whose session family is still active, or a
 * permanent token that has not been revoked. Throws 401 otherwise (also used by the Socket.IO handshake).
 */
export async function claimsOf(token: string, opts: AuthOptions): Promise<AccessClaims> {
  if (token.startsWith(PERMANENT_TOKEN_PREFIX)) {
    const claims = await opts.apiTokens.resolve(token);
    if (!claims) throw unauthorized('Unknown or revoked permanent token');
    return claims;
  }
  const claims = await opts.tokens.verify(token);
  if (!claims?.fam) throw unauthorized('Invalid or expired access token');
  const owner = await opts.sessions.ownerOf(claims.fam);
  if (owner === null) throw unauthorized('Session ended');
  // Signed with our secret is not enough: the token must speak for its own session's account.
  if (owner !== claims.sub) throw unauthorized('Invalid or expired access token');
  return claims;
}

export interface AuthOptions {
  tokens: AccessTokens;
  sessions: SessionGuard;
  apiTokens: PermanentTokenGuard;
}

/**
 * Bearer authentication: an access JWT whose session family is still active, or a permanent
 * token (`pt_…`) that has not been revoked. Refresh tokens are neither and never pass.
 */
export const authPlugin = fp(async function authPlugin(app: FastifyInstance, opts: AuthOptions) {
  app.decorate('tokens', opts.tokens);
  app.decorateRequest('auth', null as unknown as AccessClaims);
  app.decorateRequest('actingEntity', null);
  const verify = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized('Missing bearer token');
    request.auth = await claimsOf(token, opts);
  };
  // Most requests carry a token verified moments ago in a session known to be active: answer
  // those from memory without a promise, and take the full path only otherwise.
  app.decorate('authenticate', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    if (request.auth) return done();
    const token = bearerToken(request);
    const claims = token ? opts.tokens.cached(token) : undefined;
    if (claims?.fam && opts.sessions.cached(claims.fam) === claims.sub) {
      request.auth = claims;
      return done();
    }
    verify(request).then(() => done(), done);
  });
});
