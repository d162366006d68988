import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendError } from '../../plugins/errors.ts';

/** Liveness (the process answers) and readiness (the database answers), with the MQTT side's counters. */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const Ok = z.object({ status: z.string() });
  r.get('/healthz', { schema: { hide: true, response: { 200: Ok } } }, async () => ({ status: 'ok' }));
  r.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await app.database.ping();
      return {
        status: 'ready',
        database: app.database.kind,
        mqtt: { url: app.devices.link.url, ...app.devices.stats.snapshot() },
      };
    } catch (err) {
      app.log.warn({ err }, 'readiness check failed');
      return sendError(reply, { code: 503, userMessage: 'Not ready', developerMessage: 'Database unavailable' });
    }
  });
}
