import { createHmac } from 'node:crypto';
import fastifyRateLimit, { normalizeIP, type CreateRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ErrorInfoSchema } from '@fleet/shared/schemas/error';
import { HttpError } from '../lib/http-error.ts';
import { bearerToken } from './auth.ts';

/** Requests a key may make per window, by kind of route (README, configuration). */
export interface RateLimits {
  /** Any API route: per token, or per address without one. */
  api: number;
  /** POST /login, per address. */
  login: number;
  /** POST /refresh, per address: the refresh token is what a sprayer guesses, so it is no key. */
  refresh: number;
  /** Signed downloads, per address. */
  download: number;
  /** The kiosk manager: per token, or per address without one. */
  kiosk: number;
  /** Different bearer tokens refused with 401 from one address. */
  authFailures: number;
}

export interface RateLimitOptions {
  enabled: boolean;
  windowMs: number;
  limits: RateLimits;
  /** With REDIS_URL the counts live in Redis, so every instance enforces one limit. */
  redisUrl?: string;
  /** The deployment's signing secret: keys the token hashes and names the counters in Redis. */
  secret: string;
}

type PolicyName = Exclude<keyof RateLimits, 'authFailures'>;
type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `limitRate` for a route with its own, stricter limit. */
    ratePolicy?: PolicyName;
  }
  interface FastifyInstance {
    /** Rate-limits every route `scope` registers from now on; call before its authentication hook. */
    limitRate: (scope: FastifyInstance, policy: 'api' | 'kiosk') => void;
  }
}

/** Routes limited per address whatever credential they carry, more strictly than the rest of the API. */
const STRICT: Record<string, PolicyName> = {
  'POST /api/v1/login': 'login',
  'POST /api/v1/refresh': 'refresh',
  // Single sign-on's steps are sign-ins too (each start stores a flow row).
  'GET /api/v1/sso/:id/start': 'login',
  'GET /api/v1/sso/callback': 'login',
  'POST /api/v1/sso/exchange': 'login',
  'GET /api/v1/download/:kind/:id': 'download',
  'HEAD /api/v1/download/:kind/:id': 'download',
};
const BY_TOKEN = new Set<PolicyName>(['api', 'kiosk']);

/**
 * Request rate limits (@fastify/rate-limit, fixed windows): each API call counts against its
 * bearer token (an HMAC of it, never the token) or, without one, against the client address
 * (`TRUST_PROXY` decides which address that is); sign-in, refresh and downloads count per address
 * under stricter limits. Inventing tokens gets no fresh budget for long: an address whose new
 * tokens keep being refused (401) may bring no new token until its window ends. Over a limit a
 * request answers 429 in the errorInfo envelope with Retry-After, before it is authenticated.
 */
export const rateLimitPlugin = fp(async function rateLimitPlugin(app: FastifyInstance, opts: RateLimitOptions) {
  if (!opts.enabled) {
    app.decorate('limitRate', () => {});
    return;
  }
  const namespace = createHmac('sha256', opts.secret).update('rate-limit').digest('base64url').slice(0, 12);
  const redis = opts.redisUrl ? await connectRedis(app, opts.redisUrl) : undefined;
  // When Redis fails, requests pass unlimited rather than fail; its client logs the error.
  await app.register(fastifyRateLimit, {
    global: false,
    skipOnError: true,
    redis,
    nameSpace: `fleet-rl:${namespace}:`,
  });

  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  const tokenId = (token: string) => createHmac('sha256', opts.secret).update(token).digest('base64url').slice(0, 22);
  const limiter = (max: number, keyGenerator: (request: FastifyRequest) => string): Limiter => {
    // Each limiter keeps its own counts; `cache` bounds how many keys the in-process store holds.
    const options = { max, timeWindow: opts.windowMs, keyGenerator, cache: 20_000 };
    return app.createRateLimit(options as CreateRateLimitOptions);
  };
  const policies = Object.fromEntries(
    (['api', 'login', 'refresh', 'download', 'kiosk'] as const).map((name) => {
      const byToken = BY_TOKEN.has(name);
      return [
        name,
        limiter(opts.limits[name], (request) => {
          const token = byToken ? bearerToken(request) : undefined;
          return token ? `${name}:t:${tokenId(token)}` : `${name}:a:${address(request)}`;
        }),
      ];
    }),
  ) as Record<PolicyName, Limiter>;
  const failures = limiter(opts.limits.authFailures, (request) => `401:a:${address(request)}`);
  // Requests that brought a token this window had not seen yet: a 401 to one counts a failure.
  const fresh = new WeakSet<FastifyRequest>();

  app.decorate('limitRate', (scope: FastifyInstance, fallback: 'api' | 'kiosk') => {
    scope.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const strict = methods.map((m) => STRICT[`${m} ${route.url}`]).find(Boolean);
      route.config = { ...route.config, ratePolicy: strict ?? fallback };
      // Any limited route may answer 429: the OpenAPI document says so.
      if (route.schema?.response && typeof route.schema.response === 'object') {
        (route.schema.response as Record<number, unknown>)[429] ??= ErrorInfoSchema;
      }
    });
    scope.addHook('onRequest', async (request) => {
      const verdict = await policies[request.routeOptions.config.ratePolicy ?? fallback](request);
      if (verdict.isAllowed) return;
      if (verdict.isExceeded) throw tooManyRequests(verdict.ttlInSeconds, 'Too many requests from this client');
      const byToken = verdict.key.includes(':t:');
      if (!byToken || verdict.remaining !== verdict.max - 1) return;
      const refused = await failures(request, { increment: false });
      if (!refused.isAllowed && refused.remaining === 0) {
        throw tooManyRequests(refused.ttlInSeconds, 'Too many refused tokens from this address');
      }
      fresh.add(request);
    });
    // Counted before the 401 goes out, so the client's next request already meets the count.
    scope.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode !== 401 || !fresh.has(request)) return done(null, payload);
      failures(request).then(
        () => done(null, payload),
        (err: unknown) => {
          request.log.warn({ err }, 'counting a refused token');
          done(null, payload);
        },
      );
    });
  });
});

const tooManyRequests = (retryAfterS: number, developerMessage: string) =>
  new HttpError(
    429,
    'Too many requests. Try again later.',
    `${developerMessage}; retry in ${retryAfterS} s`,
    undefined,
    {
      'retry-after': String(Math.max(1, retryAfterS)),
    },
  );

/** A client that fails fast while Redis is away (no queue), so a request never waits for it. */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (err) => app.log.error({ err }, 'rate-limit redis error'));
  await redis.connect();
  app.addHook('onClose', async () => void (await redis.quit().catch(() => undefined)));
  return redis;
}
