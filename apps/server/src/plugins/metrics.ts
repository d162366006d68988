import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { LoopProbe } from '../lib/batching/flush-loop.ts';
import { FLEET_COUNTS_MAX_AGE_MS, readFleetCounts } from '../metrics/fleet-counts.ts';
import { keptFresh } from '../metrics/kept-fresh.ts';
import { createFleetMetrics, type FleetMetrics } from '../metrics/fleet-metrics.ts';
import { sendError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's metrics; null unless METRICS_TOKEN or METRICS_PORT is set (docs/metrics.md). */
    metrics: FleetMetrics | null;
    /** Where METRICS_PORT's own listener took its port (tests ask for 0). */
    metricsAddress: AddressInfo | null;
  }
}

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compares the Authorization header with `Bearer <METRICS_TOKEN>` in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}

/**
 * `/metrics` in Prometheus text (docs/metrics.md): on the API's port behind METRICS_TOKEN, and/or
 * on METRICS_PORT's own listener (which also asks for the token when it is set). With neither
 * setting nothing is measured and `/metrics` answers 404. Registered after the features it
 * reads and before the routes it times.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { config, liveConnections }: { config: Config; liveConnections: () => number }) => {
    const token = config.METRICS_TOKEN;
    const enabled = token !== undefined || config.METRICS_PORT !== undefined;
    app.decorate('metrics', null);
    app.decorate('metricsAddress', null);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!app.metrics || token === undefined)
        return sendError(reply, { code: 404, userMessage: 'Not found', developerMessage: 'No route for GET /metrics' });
      if (!bearerMatches(request.headers.authorization, token))
        return sendError(reply, {
          code: 401,
          userMessage: 'Authentication required',
          developerMessage: 'Missing or wrong METRICS_TOKEN bearer',
        });
      try {
        return reply.header('content-type', CONTENT_TYPE).send(await app.metrics.scrape());
      } catch (err) {
        // The database's figures could not be read: a failed scrape, not a server error.
        app.log.error({ err }, 'metrics: a scrape failed');
        return sendError(reply, { code: 503, userMessage: 'Not ready', developerMessage: 'Metrics unavailable' });
      }
    });
    if (!enabled) return;

    const loops = (): Record<string, LoopProbe> => ({
      telemetry: app.devices.telemetry.loop,
      command_progress: app.devices.commands.progressLoop,
      provision_reports: app.provisioning.service.reports.loop,
      alert_evaluation: app.alerts.evaluator.loop,
      ...(app.hasDecorator('beacons') && { beacon_sightings: app.beacons.sightings.loop }),
    });
    const link = app.devices.link;
    // Read every FLEET_COUNTS_MAX_AGE_MS by a timer from the first scrape on, off the scrapes' path.
    const counts = keptFresh(
      FLEET_COUNTS_MAX_AGE_MS,
      () => readFleetCounts(app.db),
      (err) => app.log.warn({ err }, 'metrics: reading the fleet counts failed'),
    );
    app.addHook('onClose', () => counts.close());
    const metrics = createFleetMetrics({
      mqtt: app.devices.stats,
      connectedDevices: link.connected ? () => link.connected!() : undefined,
      pool: app.database.probe,
      loops,
      liveConnections,
      sockets: () => (app.hasDecorator('beacons') ? app.beacons.socket.connected() : 0),
      fleetCounts: () => counts.get(),
    });
    app.metrics = metrics;
    app.devices.commands.onSettled((rows) => metrics.commandsSettled(rows));
    app.addHook('onResponse', (request, reply, done) => {
      metrics.request(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    if (config.METRICS_PORT === undefined) return;
    const server = http.createServer((req, res) => {
      const answer = (status: number, body: string, type = 'text/plain; charset=utf-8') =>
        res.writeHead(status, { 'content-type': type }).end(body);
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return answer(404, 'Not found\n');
      if (token !== undefined && !bearerMatches(req.headers.authorization, token)) return answer(401, 'Unauthorized\n');
      metrics.scrape().then(
        (text) => answer(200, text, CONTENT_TYPE),
        (err: unknown) => {
          app.log.error({ err }, 'metrics: a scrape failed');
          answer(503, 'Scrape failed\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.METRICS_PORT, config.HOST, () => resolve());
    });
    app.metricsAddress = server.address() as AddressInfo;
    app.addHook('onClose', async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: 'metrics', dependencies: ['devices', 'provisioning', 'alerts'] },
);
