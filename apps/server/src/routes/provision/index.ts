import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProvisionAnswerSchema, parseEventId } from '@fleet/shared/provision';
import type { Deps } from '../../domain/deps.ts';
import type { Provisioning } from '../../domain/provision/start-provisioning.ts';
import { findSession } from '../../domain/provision/session-store.ts';
import { notFound } from '../../lib/http-error.ts';
import { bearerToken } from '../../plugins/auth.ts';
import { auditContext } from '../audit-context.ts';
import { ERROR_RESPONSES, pathName, scopeOf } from '../scope.ts';

/**
 * Provisioning (core §7 `provision/{device}`, `…/cancel`, `…/events`). Every signed-in role of
 * the entity may provision its devices, as with commands (docs/decisions.md).
 */
export async function provisionRoutes(app: FastifyInstance, deps: Deps, p: Provisioning) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['provisioning'];
  const security = [{ bearer: [] }];
  const params = z.object({ entity: pathName(), device: pathName() });
  /** Where devices download from: PUBLIC_URL, or the origin this request came in on. */
  const base = (request: FastifyRequest) => deps.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;

  r.post(
    '/tenant/:entity/provision/:device',
    {
      schema: {
        tags,
        security,
        summary:
          'Start provisioning a device with the files of its entity, site and group: 409 while a session is open, when the device is not connected or unresponsive, or has no files',
        params,
        response: { 200: ProvisionAnswerSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = scopeOf(request, 'Device')!;
      const data = await p.service.start(
        request.auth,
        entity,
        request.params.device,
        base(request),
        auditContext(request, deps),
      );
      return { status: 'started', userMessage: `Provisioning started on device ${request.params.device}`, data };
    },
  );

  r.post(
    '/tenant/:entity/provision/:device/cancel',
    {
      schema: {
        tags,
        security,
        summary: 'Cancel the open provisioning session of a device: 409 when none is open',
        params,
        response: { 200: ProvisionAnswerSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = scopeOf(request, 'Device')!;
      const data = await p.service.cancel(request.auth, entity, request.params.device, auditContext(request, deps));
      return { status: 'cancelled', userMessage: `Provisioning cancelled on device ${request.params.device}`, data };
    },
  );

  r.get(
    '/tenant/:entity/provision/:device',
    {
      schema: {
        tags,
        security,
        summary: 'The newest provisioning session of a device (open or ended), with its files and log',
        params,
        response: { 200: ProvisionAnswerSchema, ...ERROR_RESPONSES },
      },
    },
    async (request) => {
      const entity = scopeOf(request, 'Device')!;
      const data = await p.service.latest(entity, request.params.device);
      return { status: data.ended_at ? 'ended' : 'open', userMessage: '', data };
    },
  );

  r.get(
    '/tenant/:entity/provision/:device/events',
    {
      schema: {
        tags,
        security,
        summary:
          'Server-Sent Events of the device’s provisioning session: with Last-Event-ID, the events after it; otherwise the newest session from its start. Closes after provision_completed, provision_failed or timeout, and when the access token it was opened with expires or its token, session, account or entity is gone',
        params,
        headers: z.object({ 'last-event-id': z.string().max(200).optional() }),
        response: {
          200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: z.string() } } },
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      const entity = scopeOf(request, 'Device')!;
      const { device } = request.params;
      await p.service.latest(entity, device);
      const last = parseEventId(request.headers['last-event-id']);
      const named = last ? await findSession(deps.db, device, last.session) : null;
      const session = named ?? (await findSession(deps.db, device));
      if (!session) throw notFound('Provisioning session');
      reply.hijack();
      p.streams.open(reply.raw, device, session.id, named ? last!.seq : 0);
      // The stream ends, like a dropped link, when its right lapses; the client resumes with a fresh token.
      const unwatch = deps.live.watch({ token: bearerToken(request)!, claims: request.auth, entity }, () =>
        reply.raw.end(),
      );
      reply.raw.once('close', unwatch);
      if (reply.raw.destroyed) unwatch();
    },
  );
}
