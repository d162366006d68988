import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ROLLOUT_ACTIONS,
  RolloutCreateSchema,
  RolloutDeviceSchema,
  RolloutDevicesQuerySchema,
  RolloutDryRunRequestSchema,
  RolloutDryRunSchema,
  RolloutSchema,
  type Rollout,
  type RolloutAction,
} from '@fleet/shared/schemas/rollout';
import type { Deps } from '../../domain/deps.ts';
import { approveRollout } from '../../domain/rollout/approve-rollout.ts';
import { cancelRollout } from '../../domain/rollout/cancel-rollout.ts';
import { createRollout, deliveredBy } from '../../domain/rollout/create-rollout.ts';
import { dryRunRollout } from '../../domain/rollout/dry-run-rollout.ts';
import { listRolloutDevices, listRollouts } from '../../domain/rollout/list-rollouts.ts';
import { pauseRollout } from '../../domain/rollout/pause-rollout.ts';
import { getRollout } from '../../domain/rollout/present-rollout.ts';
import { resumeRollout } from '../../domain/rollout/resume-rollout.ts';
import { retryRollout } from '../../domain/rollout/retry-rollout.ts';
import { startRollout } from '../../domain/rollout/start-rollout.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

const answer = <T extends z.ZodType>(data: T) => z.object({ status: z.string(), userMessage: z.string(), data });
const ACTS: Record<RolloutAction, (deps: Deps, r: FastifyRequest, entity: string, id: string) => Promise<Rollout>> = {
  start: (d, r, e, id) => startRollout(d.db, auditContext(r, d), e, id),
  pause: (d, r, e, id) => pauseRollout(d.db, auditContext(r, d), e, id, r.auth.sub),
  resume: (d, r, e, id) => resumeRollout(d.db, auditContext(r, d), e, id),
  approve: (d, r, e, id) => approveRollout(d.db, auditContext(r, d), e, id),
  cancel: (d, r, e, id) => cancelRollout(d.db, auditContext(r, d), e, id),
  retry: (d, r, e, id) => retryRollout(d.db, auditContext(r, d), e, id),
};
const DONE: Record<RolloutAction, string> = {
  start: 'started',
  pause: 'paused',
  resume: 'resumed',
  approve: 'approved: the next stage runs',
  cancel: 'cancelled',
  retry: 'retrying its failed devices',
};

/**
 * Firmware rollouts of an entity (issue 28; docs/rollouts.md). Every signed-in role of the entity
 * may manage them, as it may update firmware; another entity's rollout is 404 on every path.
 */
export async function rolloutRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['rollouts'];
  const security = [{ bearer: [] }];
  const params = z.object({ entity: pathName() });
  const one = params.extend({ id: pathName() });
  const base = (request: FastifyRequest) => deps.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;
  const kick = () => app.rollouts.engine.kick();

  r.get(
    '/tenant/:entity/rollouts',
    {
      schema: {
        tags,
        security,
        summary: "The entity's rollouts, newest first, with state and counts",
        params,
        response: { 200: answer(z.array(RolloutSchema)), ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      status: 'success',
      userMessage: '',
      data: await listRollouts(deps.db, scopeOf(request, 'Entity')!),
    }),
  );

  r.post(
    '/tenant/:entity/rollouts/dry-run',
    {
      schema: {
        tags,
        security,
        summary: 'What a rollout would reach if it started now: devices of the type, skipped, and each stage’s size',
        params,
        body: RolloutDryRunRequestSchema,
        response: { 200: answer(RolloutDryRunSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = scopeOf(request, 'Entity')!;
      const fw = await deliveredBy(deps.db, entity, request.body);
      const data = await dryRunRollout(deps.db, entity, fw, request.body, 400);
      return { status: 'success', userMessage: '', data };
    },
  );

  r.post(
    '/tenant/:entity/rollouts',
    {
      schema: {
        tags,
        security,
        summary:
          'Create a rollout (a draft): a firmware image or the file sets over a target, in stages, with its thresholds, soak, window and jitter',
        params,
        body: RolloutCreateSchema,
        response: { 201: answer(RolloutSchema), ...ERROR_RESPONSES },
      },
    },
    async (request, reply) => {
      const entity = scopeOf(request, 'Entity')!;
      const who = { actor: request.auth.sub, entity, base: base(request) };
      const data = await createRollout(deps.db, auditContext(request, deps), who, request.body);
      return reply.code(201).send({ status: 'success', userMessage: `Rollout ${data.name} created`, data });
    },
  );

  r.get(
    '/tenant/:entity/rollouts/events',
    {
      schema: {
        tags,
        security,
        summary:
          'Server-Sent Events: `rollout` with the id of a rollout of the entity that changed (state, progress), from any instance; ends when the right it was opened with lapses',
        params,
        response: {
          200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const entity = scopeOf(request, 'Entity')!;
      reply.hijack();
      const close = app.rollouts.streams.open(reply.raw, entity);
      const unwatch = deps.live.watch({ token: bearerToken(request)!, claims: request.auth, entity }, close);
      reply.raw.once('close', unwatch);
      if (reply.raw.destroyed) unwatch();
    },
  );

  r.get(
    '/tenant/:entity/rollouts/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One rollout: its settings, state, pause reason and the counts per stage',
        params: one,
        response: { 200: answer(RolloutSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => ({
      status: 'success',
      userMessage: '',
      data: await getRollout(deps.db, scopeOf(request, 'Rollout')!, request.params.id),
    }),
  );

  r.get(
    '/tenant/:entity/rollouts/:id/devices',
    {
      schema: {
        tags,
        security,
        summary: "A rollout's device results (the current attempt of each), filtered by state or name",
        params: one,
        querystring: RolloutDevicesQuerySchema,
        response: {
          200: z.object({ data: z.array(RolloutDeviceSchema), total: z.number() }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => listRolloutDevices(deps.db, scopeOf(request, 'Rollout')!, request.params.id, request.query),
  );

  r.post(
    '/tenant/:entity/rollouts/:id/:action',
    {
      schema: {
        tags,
        security,
        summary: `Act on a rollout: ${ROLLOUT_ACTIONS.join(', ')}. 409 when its state does not allow it`,
        params: one.extend({ action: z.enum(ROLLOUT_ACTIONS, { error: `One of ${ROLLOUT_ACTIONS.join(', ')}` }) }),
        response: { 200: answer(RolloutSchema), ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const { id, action } = request.params;
      const data = await ACTS[action](deps, request, scopeOf(request, 'Rollout')!, id);
      kick();
      return { status: 'success', userMessage: `Rollout ${data.name} ${DONE[action]}`, data };
    },
  );
}
