import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/client.ts';
import { bootstrapAdmin } from './domain/account/bootstrap-admin.ts';
import type { Deps } from './domain/deps.ts';
import { resolveJwtSecret } from './lib/jwt-secret.ts';
import { logDestination } from './lib/log-destination.ts';
import { shuttingDown } from './lib/shutting-down.ts';
import { REQUEST_ID_HEADER, requestIdGenerator } from './lib/request-id.ts';
import { defaultWebDist } from './lib/paths.ts';
import { AccessTokens } from './lib/tokens.ts';
import { authPlugin } from './plugins/auth.ts';
import { dbPlugin } from './plugins/db.ts';
import { devicesPlugin } from './plugins/devices.ts';
import { assertStorableBody, edgePlugin } from './plugins/edge.ts';
import { clientErrorHandler, errorsPlugin, sendError } from './plugins/errors.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { provisioningPlugin } from './plugins/provisioning.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { securityPlugin } from './plugins/security.ts';
import { webPlugin } from './plugins/web.ts';
import { accountRoutes } from './routes/account/index.ts';
import { entityRoutes } from './routes/entity/index.ts';
import { tokenRoutes } from './routes/token/index.ts';
import { deviceRoutes } from './routes/device/index.ts';
import { deviceViewRoutes } from './routes/device-view/index.ts';
import { deviceHistoryRoutes } from './routes/device-history/index.ts';
import { SessionGuard } from './domain/session/session-guard.ts';
import { PermanentTokenGuard } from './domain/token/permanent-token-guard.ts';
import { createLocalBus, createRedisBus } from './lib/bus.ts';
import { healthRoutes } from './routes/health/index.ts';
import { sessionRoutes } from './routes/session/index.ts';
import { ssoRoutes } from './routes/sso/index.ts';
import { commandRoutes } from './routes/command/index.ts';
import { orgRoutes } from './routes/org/index.ts';
import { dataviewRoutes } from './routes/dataview/index.ts';
import { fileRoutes } from './routes/files/index.ts';
import { downloadRoutes } from './routes/files/download.ts';
import { createBlobStore } from './storage/create-blob-store.ts';
import { isLocalBlobStore } from './storage/local-blob-store.ts';
import { listenForBackups } from './backup/backup-socket.ts';
import { DownloadSigner } from './storage/signed-urls.ts';
import { sweepOrphanBlobs } from './domain/files/sweep-orphan-blobs.ts';
import { sweepDetachedUploads } from './domain/files/sweep-detached-uploads.ts';
import { beaconRoutes } from './routes/beacon/index.ts';
import { beaconSidePlugin } from './realtime/beacon-side.ts';
import { startLiveConnections } from './realtime/live-connections.ts';
import { allocationRoutes } from './routes/allocation/index.ts';
import { KIOSK_MANAGER_PREFIX, kioskManagerRoutes } from './kiosk-manager/routes.ts';
import { provisionRoutes } from './routes/provision/index.ts';
import { auditRoutes } from './routes/audit/index.ts';
import { fleetHealthRoutes } from './routes/fleet-health/index.ts';
import { auditRefusals } from './routes/audit-context.ts';
import { sweepAudit } from './domain/audit/sweep-audit.ts';
import { rolloutsPlugin } from './plugins/rollouts.ts';
import { selectionsPlugin } from './plugins/selections.ts';
import { rolloutRoutes } from './routes/rollout/index.ts';
import { requireEntityOfPath } from './routes/scope.ts';
import { alertsPlugin } from './plugins/alerts.ts';
import { deliveryPlugin } from './plugins/delivery.ts';
import { alertRoutes } from './routes/alert/index.ts';
import { webhookRoutes } from './routes/webhook/index.ts';
import { metricsPlugin } from './plugins/metrics.ts';

export interface BuildOptions {
  /** Called once with the superadmin's generated password on first start. */
  onGeneratedPassword?: (username: string, password: string) => void;
  logger?: boolean;
  /** The database, already being opened (main.ts starts it before loading the rest); else opened here. */
  database?: Promise<Database>;
  /** Only the kiosk manager (kiosk-manager/main.ts): no API, console, sweeps or beacon side. */
  kioskManagerOnly?: boolean;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
  /**
   * Bench only (bench/audit-cost.mjs's same-run baseline): changes made through the API record no
   * audit entry and run without the transaction that carries it. Never set by main.ts.
   */
  unaudited?: boolean;
}

// Fastify types these factories by Ajv's and fast-json-stringify's compilers; zod's take the same calls.
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/** Builds the whole server (database, API, console) without listening. Close it with `app.close()`. */
export async function build(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            stream: opts.logStream ?? logDestination(),
          },
    trustProxy: config.TRUST_PROXY,
    // Every log line of a request carries its id (`reqId`), as do its command's audit entries (docs/metrics.md).
    genReqId: requestIdGenerator(config.TRUST_PROXY),
    // One line a request (docs/operations.md), written by the onResponse hook below, not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1_048_576,
    // Requests arriving while shutting down are answered 503 in the envelope (below), not Fastify's way.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // The embedded database opens in a worker and migrates before the app is ready: on a busy
    // 2-core host that can pass Fastify's 10 s default, which would kill a start that was fine.
    pluginTimeout: 60_000,
    // Malformed URLs and bad content types fail before routing; answer them in the envelope too.
    frameworkErrors: (error, _request, reply) =>
      sendError(reply, { code: 400, userMessage: 'Invalid request', developerMessage: error.message }),
    // And what Node's HTTP parser refuses before that (431, 400, 408).
    clientErrorHandler,
    // Every route validates and serialises with zod (set below); without these factories Fastify
    // would load Ajv and fast-json-stringify at construction to build defaults nothing uses.
    schemaController: { compilersFactory: ZOD_COMPILERS },
  });
  // Body-less POSTs (refresh, logout) often still say application/json; treat an empty body as none.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body as string, (err, parsed) => {
      if (err) return done(err, undefined);
      try {
        assertStorableBody(parsed);
      } catch (refused) {
        return done(refused as Error, undefined);
      }
      done(null, parsed);
    });
  });
  // While shutting down, in-flight answers close their keep-alive connection so close() can finish.
  // Node's closeIdleConnections() (forceCloseConnections: 'idle') skips a connection that has not
  // sent a byte yet, such as a pooled fetch socket whose request was aborted before it was
  // written; one of those would hold close() open until the headers timeout. Cut them too.
  let closing = false;
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    // Fastify stops listening right after this hook; then no new connection can arrive.
    setImmediate(() => {
      for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    });
  });
  // Requests arriving meanwhile (on an open connection, or while command calls drain) get 503
  // with Retry-After: a load balancer or the console tries again elsewhere or a moment later.
  app.addHook('onRequest', (_request, _reply, done) => done(closing ? shuttingDown() : undefined));
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const jwtSecret = await resolveJwtSecret(config.JWT_SECRET, config.dataDir);
  const tokens = new AccessTokens(jwtSecret, config.ACCESS_TOKEN_TTL_S);
  await app.register(errorsPlugin);
  await app.register(edgePlugin, {
    bodyIdleTimeoutMs: config.BODY_IDLE_TIMEOUT_MS,
    bodyTimeoutMs: config.BODY_TIMEOUT_MS,
  });
  await app.register(securityPlugin, {
    connectSources: config.KIOSK_MANAGER_URL ? [new URL(config.KIOSK_MANAGER_URL).origin] : [],
    https: config.PUBLIC_URL?.startsWith('https:') ?? false,
  });
  await app.register(openapiPlugin);
  await app.register(rateLimitPlugin, {
    enabled: config.RATE_LIMIT_ENABLED,
    windowMs: config.RATE_LIMIT_WINDOW_S * 1000,
    limits: {
      api: config.RATE_LIMIT_MAX,
      login: config.RATE_LIMIT_LOGIN_MAX,
      refresh: config.RATE_LIMIT_REFRESH_MAX,
      download: config.RATE_LIMIT_DOWNLOAD_MAX,
      kiosk: config.RATE_LIMIT_KIOSK_MAX,
      authFailures: config.RATE_LIMIT_AUTH_FAILURES_MAX,
    },
    redisUrl: config.REDIS_URL,
    secret: jwtSecret,
  });
  // Awaited here, outside any plugin: Fastify's plugin timeout is for a plugin that never calls
  // back, and a database replaying its log after a kill -9 on a busy host (or migrating a large
  // table) can take longer than any such limit. A start that is slow but sound must not fail.
  const database = await (opts.database ?? openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  await app.register(dbPlugin, { database });

  // The start-up order, in one place: database (above) → bus → device side (the message router,
  // telemetry, commands; the broker's link publishes but takes no message yet) → the features that
  // own device messages register their handlers → the broker takes messages → routes.
  const bus = config.REDIS_URL
    ? await createRedisBus(config.REDIS_URL, (err) => app.log.error({ err }, 'redis bus error'))
    : createLocalBus();
  app.addHook('onClose', async () => bus.close());
  await app.register(devicesPlugin, { config, bus });
  // The token guard hears a revocation on the bus before the live connections do: they ask it
  // whether a token still holds, and must not be answered from its cache of the revoked token.
  const apiTokens = new PermanentTokenGuard(app.db, bus);
  const live = startLiveConnections(app, { bus, recheckS: config.LIVE_RECHECK_S, deps: () => deps });
  const deps: Deps = {
    devices: app.devices,
    db: app.db,
    tokens,
    config,
    bus,
    sessions: new SessionGuard(app.db, bus),
    apiTokens,
    blobs: await createBlobStore(config),
    downloads: new DownloadSigner(jwtSecret),
    live,
    ...(opts.unaudited ? { unaudited: true } : {}),
  };
  app.addHook('onClose', async () => deps.blobs.close());
  // Every instance on the device side gets its share of the devices' messages (shared
  // subscriptions), the kiosk manager on its own too: each handles sightings and provisioning reports.
  await app.register(beaconSidePlugin, { deps });
  await app.register(provisioningPlugin, { deps });
  if (!opts.kioskManagerOnly) await app.register(rolloutsPlugin, { deps });
  if (!opts.kioskManagerOnly) await app.register(selectionsPlugin, { deps });
  await app.register(alertsPlugin, { deps });
  if (!opts.kioskManagerOnly) await app.register(deliveryPlugin, { deps });
  await app.devices.listen();
  // Before the routes it times; after the features whose counters it reads.
  await app.register(metricsPlugin, { config, liveConnections: () => live.size });

  await app.register(authPlugin, { tokens, sessions: deps.sessions, apiTokens: deps.apiTokens });
  await app.register(healthRoutes);
  // The kiosk manager is mounted here by default; it also runs on its own (kiosk-manager/main.ts).
  await app.register(
    async (km) => {
      app.limitRate(km, 'kiosk');
      await kioskManagerRoutes(km, deps);
    },
    { prefix: KIOSK_MANAGER_PREFIX },
  );
  if (opts.kioskManagerOnly) return app;
  sweepOrphanBlobs(app.db, deps.blobs).catch((err) => app.log.error({ err }, 'sweeping orphan blobs'));
  // `npm run backup` asks the embedded database and the local blob store through DATA_DIR/backup.sock.
  if (database.snapshot && isLocalBlobStore(deps.blobs)) {
    const stopBackups = await listenForBackups({
      dataDir: config.dataDir,
      snapshot: database.snapshot,
      blobs: deps.blobs,
      log: app.log,
    });
    app.addHook('preClose', stopBackups);
  }
  const sweepUploads = () =>
    void sweepDetachedUploads(app.db, deps.blobs).catch((err) => app.log.error({ err }, 'sweeping detached uploads'));
  sweepUploads();
  const uploadSweeper = setInterval(sweepUploads, 5 * 60_000);
  uploadSweeper.unref();
  app.addHook('preClose', async () => clearInterval(uploadSweeper));
  // The audit log's retention, the only deletion of its entries (docs/audit.md).
  const sweepAuditLog = () =>
    void sweepAudit(app.db, config.AUDIT_RETENTION_DAYS).catch((err) => app.log.error({ err }, 'sweeping audit log'));
  sweepAuditLog();
  const auditSweeper = setInterval(sweepAuditLog, 60 * 60_000);
  auditSweeper.unref();
  app.addHook('preClose', async () => clearInterval(auditSweeper));
  const boot = await bootstrapAdmin(app.db, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD });
  if (boot.created) app.log.info({ username: config.ADMIN_USERNAME }, 'created the superadmin');
  if (boot.generatedPassword) opts.onGeneratedPassword?.(config.ADMIN_USERNAME, boot.generatedPassword);

  await app.register(
    async (api) => {
      // Every API route authenticates before its body is read or validated; only routes marked
      // `config: { public: true }` (sign-in, refresh, logout) handle their credentials themselves.
      // Rate limits come first: a flood is refused before any credential is checked.
      app.limitRate(api, 'api');
      api.addHook('onRequest', (request, reply, done) => {
        if (request.routeOptions.config.public) return done();
        app.authenticate(request, reply, done);
      });
      api.addHook('onRequest', requireEntityOfPath(deps.db));
      auditRefusals(api, deps);
      await sessionRoutes(api, deps);
      await ssoRoutes(api, deps);
      await entityRoutes(api, deps);
      await accountRoutes(api, deps);
      await tokenRoutes(api, deps);
      await deviceRoutes(api, deps);
      await deviceViewRoutes(api, deps);
      await deviceHistoryRoutes(api, deps);
      await commandRoutes(api, deps);
      await fileRoutes(api, deps);
      await downloadRoutes(api, deps);
      await orgRoutes(api, deps);
      await dataviewRoutes(api, deps);
      await beaconRoutes(api, deps);
      await allocationRoutes(api, deps);
      await provisionRoutes(api, deps, app.provisioning);
      await auditRoutes(api, deps);
      await fleetHealthRoutes(api, deps);
      await rolloutRoutes(api, deps);
      await alertRoutes(api, deps, app.alerts);
      await webhookRoutes(api, deps, opts.kioskManagerOnly ? undefined : app.delivery);
    },
    { prefix: '/api/v1' },
  );
  await app.register(webPlugin, { root: config.WEB_DIST ?? defaultWebDist() });
  return app;
}
