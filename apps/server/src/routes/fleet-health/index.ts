import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FleetHealthQuerySchema,
  FleetHealthSchema,
  LandlordFleetHealthQuerySchema,
} from '@fleet/shared/schemas/fleet-health';
import type { Deps } from '../../domain/deps.ts';
import { getFleetHealth } from '../../domain/fleet-health/get-fleet-health.ts';
import { assertEntityAccess, assertLandlord } from '../../plugins/auth.ts';
import { ERROR_RESPONSES, pathName } from '../scope.ts';

/**
 * The fleet at a glance, read by everyone who may read the devices (docs/decisions): an entity's
 * under `tenant/{entity}/fleet-health`, every entity's (or one, `?entity=`) under `fleet-health`
 * for superadmins.
 */
export async function fleetHealthRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['fleet-health'];
  const security = [{ bearer: [] }];

  r.get(
    '/tenant/:entity/fleet-health',
    {
      schema: {
        tags,
        security,
        summary: "The entity's devices now (presence, battery, states, firmware) and over the window",
        params: z.object({ entity: pathName() }),
        querystring: FleetHealthQuerySchema,
        response: { 200: FleetHealthSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      assertEntityAccess(request.auth, request.params.entity);
      return getFleetHealth(deps.db, request.params.entity, request.query.window);
    },
  );

  r.get(
    '/fleet-health',
    {
      schema: {
        tags,
        security,
        summary: "Every entity's devices now and over the window (superadmins); `entity` narrows it to one",
        querystring: LandlordFleetHealthQuerySchema,
        response: { 200: FleetHealthSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      assertLandlord(request.auth);
      return getFleetHealth(deps.db, request.query.entity ?? null, request.query.window);
    },
  );
}
