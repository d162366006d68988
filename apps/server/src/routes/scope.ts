import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import type { Scope } from '../domain/account/account-scope.ts';
import { assertEntityAccess, assertLandlord } from '../plugins/auth.ts';

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

/** The error answers a resource route documents: every one is the `errorInfo` envelope. */
export const ERROR_RESPONSES = {
  400: ErrorInfoSchema,
  401: ErrorInfoSchema,
  403: ErrorInfoSchema,
  404: ErrorInfoSchema,
  409: ErrorInfoSchema,
} as const;
