import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from './errors.ts';
import { isApiPath } from './security.ts';

const LOGIN_PATH = '/auth/login';
/** A file's path under assets/ as the build names them: no empty, hidden, `.` or `..` segment. */
const ASSET_NAME = /^(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/;

/**
 * Serves the built console from `root` with hashed assets cached for a year, and answers every
 * other GET with index.html so the client router can take over, whatever the client accepts
 * (curl and load-balancer health checks, which accept anything, included) unless it asks for JSON only.
 * Unknown API paths answer the errorInfo 404.
 */
export const webPlugin = fp(async function webPlugin(app: FastifyInstance, opts: { root: string }) {
  const built = existsSync(path.join(opts.root, 'index.html'));
  const prerendered = ['login.html', 'login-dark.html'].every((f) => existsSync(path.join(opts.root, f)));
  if (built) {
    // The top-level files (index.html, the sign-in pages, the icon) one route each; assets/ (its
    // 300 chunks and maps, each with a .br and a .gz) behind the one route below: a route a file was
    // 940 of the server's 1,300 routes and most of its start-up's routing work
    // (bench/notes/suite-speed-2026-11-29.md, s24b).
    await app.register(fastifyStatic, {
      root: opts.root,
      wildcard: false,
      globIgnore: ['assets/**'],
      index: false,
      // The build writes .br and .gz beside each asset (scripts/compress-dist.mjs).
      preCompressed: true,
      setHeaders(res, file) {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        void res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // Served as the per-file routes served them; a name that is not a file there falls through
    // to the handler below, as an unrouted path does.
    const assets = path.join(opts.root, 'assets');
    app.route({
      method: ['GET', 'HEAD'],
      url: '/assets/*',
      schema: { hide: true },
      // Not async: a promise resolved with the reply would wait on it (Reply.then), a listener a wait.
      handler(request, reply) {
        const name = (request.params as { '*': string })['*'];
        if (ASSET_NAME.test(name)) reply.sendFile(name, assets);
        else reply.callNotFound();
      },
    });
  } else {
    app.log.warn({ root: opts.root }, 'console not built: run `npm run build` to serve it');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (!isApiPath(url) && request.method === 'GET' && !wantsJsonOnly(request.headers.accept) && built) {
      return reply
        .header('cache-control', 'no-cache')
        .sendFile(
          prerendered && url.split('?')[0] === LOGIN_PATH ? loginPageFile(request.headers.cookie) : 'index.html',
        );
    }
    return sendError(reply, {
      code: 404,
      userMessage: 'Not found',
      developerMessage: `No route for ${request.method} ${url.split('?')[0]}`,
    });
  });
});

/**
 * The sign-in page comes prerendered (apps/web/scripts/prerender.mjs) so it paints before its
 * scripts load, in the colour scheme the browser remembers (the console mirrors its Dark Mode
 * choice into the fleet-theme cookie); every other console path gets index.html.
 */
export function loginPageFile(cookie: string | undefined): string {
  return /(?:^|;\s*)fleet-theme=dark(?:;|$)/.test(cookie ?? '') ? 'login-dark.html' : 'login.html';
}

/** True when every media range the client accepts is JSON (`application/json`, `…+json`). */
export function wantsJsonOnly(accept: string | undefined): boolean {
  const types = (accept ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .filter(Boolean);
  return types.length > 0 && types.every((t) => t === 'application/json' || t.endsWith('+json'));
}
