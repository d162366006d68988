import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import type { Scope } from '../domain/account/account-scope.ts';
import type { Deps } from '../domain/deps.ts';
import { entityExists } from '../domain/entity/entity-exists.ts';
import { notFound } from '../lib/http-error.ts';
import { assertEntityAccess, assertLandlord, isLandlord } from '../plugins/auth.ts';

/** A name in a path. Malformed names are simply not found, so the rule here is only a size bound. */
export const pathName = () => z.string().min(1).max(128);

/** The two path families of core §7: the landlord's plain paths and the entity-scoped `tenant/{entity}/` ones. */
export const SCOPES = [
  { prefix: '', params: {} },
  { prefix: '/tenant/:entity', params: { entity: pathName() } },
] as const;

/**
 * The scope a request acts in: `null` (all entities) on a plain path, which only the landlord
 * may use; the path's entity otherwise, which must be the caller's own unless it is the landlord.
 */
export function scopeOf(request: FastifyRequest, what = 'Resource'): Scope {
  const entity = (request.params as { entity?: string }).entity;
  if (entity === undefined) {
    assertLandlord(request.auth);
    return null;
  }
  assertEntityAccess(request.auth, entity, what);
  return entity;
}

/**
 * Hook, after authentication: a landlord naming a `tenant/{entity}/` that does not exist gets
 * 404 'Entity not found' on every route, before its body is read; one that exists becomes the
 * request's `actingEntity` (the landlord acting inside that entity). No one else costs a query:
 * the caller's own entity exists while its token is valid (deleting an entity ends its accounts'
 * sessions and permanent tokens), and `scopeOf` refuses any other the same way whether it exists
 * or not. Writes still map the database's refusal, for an entity deleted meanwhile.
 */
export function requireEntityOfPath(db: Deps['db']) {
  return async (request: FastifyRequest): Promise<void> => {
    const entity = (request.params as { entity?: string }).entity;
    if (entity === undefined || !request.auth || !isLandlord(request.auth)) return;
    if (!(await entityExists(db, entity))) throw notFound('Entity');
    request.actingEntity = entity;
  };
}

/** The error answers a resource route documents: every one is the `errorInfo` envelope. */
export const ERROR_RESPONSES = {
  400: ErrorInfoSchema,
  401: ErrorInfoSchema,
  403: ErrorInfoSchema,
  404: ErrorInfoSchema,
  409: ErrorInfoSchema,
} as const;
