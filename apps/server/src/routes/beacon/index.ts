import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BeaconConfigCreateSchema,
  BeaconConfigListSchema,
  BeaconConfigSchema,
  BeaconConfigUpdateSchema,
  BeaconEventListSchema,
  BeaconEventQuerySchema,
} from '@fleet/shared/schemas/beacon';
import { BEACON_MESSAGES } from '@fleet/shared/beacon-constants';
import { StatusSchema, statusWith } from '@fleet/shared/schemas/list';
import { createBeaconConfig } from '../../domain/beacon/create-beacon-config.ts';
import { deleteBeaconConfig } from '../../domain/beacon/delete-beacon-config.ts';
import { listBeaconConfigs } from '../../domain/beacon/list-beacon-configs.ts';
import { listBeaconEvents } from '../../domain/beacon/list-beacon-events.ts';
import { updateBeaconConfig } from '../../domain/beacon/update-beacon-config.ts';
import type { Deps } from '../../domain/deps.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

const errors = ERROR_RESPONSES;

/** The beacon demo's calls (fleet §7): events with the stats cards' figures, and configurations. */
export async function beaconRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['beacons'];
  const security = [{ bearer: [] }];
  const Scoped = z.object({ entity: pathName() });
  const WithId = Scoped.extend({ id: pathName() });
  const entityOf = (request: Parameters<typeof scopeOf>[0]) => scopeOf(request, 'Entity') as string;
  const changed = (entity: string) => deps.bus.publish('beacons.changed', { entity });

  r.get(
    '/tenant/:entity/beacon-events',
    {
      schema: {
        tags,
        security,
        summary: 'The most recent beacon events, newest first, with the last 24 hours’ figures',
        params: Scoped,
        querystring: BeaconEventQuerySchema,
        response: { 200: BeaconEventListSchema, ...errors },
      },
    },
    async (request) => ({ data: await listBeaconEvents(deps.db, entityOf(request), request.query.limit) }),
  );

  r.get(
    '/tenant/:entity/beacon-configs',
    {
      schema: {
        tags,
        security,
        summary: 'Every beacon configuration of the entity',
        params: Scoped,
        response: { 200: BeaconConfigListSchema, ...errors },
      },
    },
    async (request) => ({ data: { beacons: await listBeaconConfigs(deps.db, entityOf(request)) } }),
  );

  r.post(
    '/tenant/:entity/beacon-configs',
    {
      schema: {
        tags,
        security,
        summary: 'Configure a beacon: the form as it is; the MAC is normalised to lowercase hex without colons',
        params: Scoped,
        body: BeaconConfigCreateSchema,
        response: { 201: statusWith(BeaconConfigSchema), ...errors },
      },
    },
    async (request, reply) => {
      const entity = entityOf(request);
      const data = await createBeaconConfig(deps.db, auditContext(request, deps), request.auth, entity, request.body);
      await changed(entity);
      return reply.code(201).send({ status: BEACON_MESSAGES.created, data });
    },
  );

  r.put(
    '/tenant/:entity/beacon-configs/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a beacon configuration (the MAC is immutable)',
        params: WithId,
        body: BeaconConfigUpdateSchema,
        response: { 200: statusWith(BeaconConfigSchema), ...errors },
      },
    },
    async (request) => {
      const entity = entityOf(request);
      const data = await updateBeaconConfig(
        deps.db,
        auditContext(request, deps),
        request.auth,
        entity,
        request.params.id,
        request.body,
      );
      await changed(entity);
      return { status: BEACON_MESSAGES.updated, data };
    },
  );

  r.delete(
    '/tenant/:entity/beacon-configs/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a beacon configuration (its events stay in the history)',
        params: WithId,
        response: { 200: StatusSchema, ...errors },
      },
    },
    async (request) => {
      const entity = entityOf(request);
      await deleteBeaconConfig(deps.db, auditContext(request, deps), request.auth, entity, request.params.id);
      await changed(entity);
      return { status: BEACON_MESSAGES.deleted };
    },
  );
}
