import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The security headers every answer carries, built once: a CSP with no inline script, nosniff,
 * no framing, a strict referrer policy, and the rest of helmet's defaults. Styles may be inline
 * because Mantine injects its CSS variables. (Built by hand rather than with @fastify/helmet,
 * which rebuilds its middleware on every request and cost a third of a trivial route's CPU.)
 */
export function securityHeaders(opts: { connectSources: string[]; https: boolean }): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...opts.connectSources].join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  const headers: Record<string, string> = {
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  // Embedded mode serves plain HTTP on a LAN address; HSTS only makes sense behind HTTPS.
  if (opts.https) headers['strict-transport-security'] = 'max-age=15552000; includeSubDomains';
  return headers;
}

const API_PREFIXES = ['/api/', '/kiosk-manager/'];

/** True for the API's paths (REST, token answers, the kiosk manager, the API document), not the console's. */
export const isApiPath = (url: string) => url === '/api' || API_PREFIXES.some((p) => url.startsWith(p));

/**
 * The headers above on every answer; API answers are also never stored by a browser or a proxy
 * (`Cache-Control: no-store`: they carry tokens and tenant data). The console's files set their
 * own caching (plugins/web.ts).
 */
export const securityPlugin = fp(async function securityPlugin(
  app: FastifyInstance,
  opts: { connectSources: string[]; https: boolean },
) {
  const headers = securityHeaders(opts);
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? apiHeaders : headers);
    done();
  });
});
