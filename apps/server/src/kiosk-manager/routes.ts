import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AllocateRequestSchema, KioskAnswerSchema, ReturnRequestSchema } from '@fleet/shared/schemas/allocation';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { allocateDevice } from '../domain/allocation/allocate-device.ts';
import { returnDevice } from '../domain/allocation/return-device.ts';
import type { Deps } from '../domain/deps.ts';
import { auditContext } from '../routes/audit-context.ts';
import { ERROR_RESPONSES, pathName, requireEntityOfPath, scopeOf } from '../routes/scope.ts';

/** The prefix the kiosk manager answers under, in the server and on its own (ARCHITECTURE.md). */
export const KIOSK_MANAGER_PREFIX = '/kiosk-manager/v1';

const errors = { ...ERROR_RESPONSES, 502: ErrorInfoSchema, 503: ErrorInfoSchema, 504: ErrorInfoSchema };

/**
 * The kiosk manager (fleet §7): allocate a device to a visitor from its kiosk, and return it to a
 * kiosk's dispenser. Same bearer tokens and entity rules as the API: every route authenticates in
 * one onRequest hook, and another entity's kiosk or device is not found.
 */
export async function kioskManagerRoutes(app: FastifyInstance, deps: Deps) {
  // On its own host (KIOSK_MANAGER_URL) the console calls it cross-origin: the console's origin
  // (PUBLIC_URL) may, with the bearer header; no cookies are involved.
  const consoleOrigin = deps.config.PUBLIC_URL ? new URL(deps.config.PUBLIC_URL).origin : null;
  app.addHook('onRequest', (request, reply, done) => {
    if (consoleOrigin && request.headers.origin === consoleOrigin) {
      void reply.header('access-control-allow-origin', consoleOrigin).header('vary', 'Origin');
    }
    if (request.method === 'OPTIONS') return done();
    app.authenticate(request, reply, done);
  });
  // As on the API: a landlord's kiosk of an entity that does not exist is not found, one that does
  // names the entity it acts inside (`request.actingEntity`).
  app.addHook('onRequest', requireEntityOfPath(deps.db));
  app.options('/kiosk/:entity/:kiosk/:verb', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('access-control-allow-methods', 'POST')
      .header('access-control-allow-headers', 'authorization, content-type')
      .header('access-control-max-age', '600')
      .code(204)
      .send(),
  );
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['kiosk manager'];
  const security = [{ bearer: [] }];
  const params = z.object({ entity: pathName(), kiosk: pathName() });

  r.post(
    '/kiosk/:entity/:kiosk/allocate',
    {
      schema: {
        tags,
        security,
        summary:
          'Allocate a device to a visitor from the kiosk of its last dispenser: 200 once the device confirmed, 202 held while it sleeps, 409 no kiosk information or already allocated',
        params,
        body: AllocateRequestSchema,
        response: { 200: KioskAnswerSchema, 202: KioskAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const entity = scopeOf(request, 'Kiosk')!;
      const answer = await allocateDevice(
        deps,
        auditContext(request, deps),
        request.auth,
        entity,
        request.params.kiosk,
        request.body,
      );
      return reply.code(answer.code).send(answer.body);
    },
  );

  r.post(
    '/kiosk/:entity/:kiosk/return',
    {
      schema: {
        tags,
        security,
        summary:
          "Return a device to one of the kiosk's dispensers (its group and last dispenser); its allocation closes. 409 when the dispenser is full",
        params,
        body: ReturnRequestSchema,
        response: { 200: KioskAnswerSchema, 202: KioskAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const entity = scopeOf(request, 'Kiosk')!;
      const answer = await returnDevice(
        deps,
        auditContext(request, deps),
        request.auth,
        entity,
        request.params.kiosk,
        request.body,
      );
      return reply.code(answer.code).send(answer.body);
    },
  );
}
