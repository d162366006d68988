import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { documentTransform } from './openapi-transform.ts';

export const DOCS_PATH = '/api/docs';

/**
 * True when the Accept header ranks text/html above application/json: a browser's navigation.
 * No Accept, `*∕*` and application/json (what clients and the tests send) keep the JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  const rank = (type: string) => {
    for (const part of (accept ?? '').split(',')) {
      const [media, ...params] = part.trim().toLowerCase().split(';');
      if (media?.trim() !== type) continue;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return q ? Number(q.slice(2)) || 0 : 1;
    }
    return 0;
  };
  const html = rank('text/html');
  return html > 0 && html > rank('application/json');
}

// The console's mark (apps/web/public/favicon.svg) and name in the page's top bar, instead of the
// renderer's; the page shows it as a data: image, which the CSP's img-src allows.
const MARK =
  '<rect width="32" height="32" rx="7" fill="#4263eb"/><circle cx="16" cy="17" r="3" fill="#fff"/>' +
  '<path d="M9.5 10.5a9.2 9.2 0 0 1 13 0M12.2 13.3a5.3 5.3 0 0 1 7.6 0M16 20v5" fill="none" stroke="#fff" ' +
  'stroke-width="2.2" stroke-linecap="round"/>';
const LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 250 32">${MARK}` +
  '<text x="42" y="23" font-family="sans-serif" font-size="20" font-weight="600" fill="#fff">Fleet Console API</text></svg>';

/**
 * OpenAPI 3.1 built from the routes' zod schemas, at /api/docs: the JSON for clients, Swagger UI
 * (served from node_modules, no outside resources, within the CSP) for a browser
 * (docs/decisions/2026-11-28-api-reference-page.md).
 */
export const openapiPlugin = fp(async function openapiPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Fleet Console API',
        version: '1.0.0',
        description:
          'REST API of Fleet Console. Errors answer {errorInfo: {code, userMessage, developerMessage, details?}}. ' +
          'Sign in with `POST /api/v1/login`, then send the access token as `Authorization: Bearer <token>`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: documentTransform,
  });
  const json = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('vary', 'Accept');
    const { url } = request.routeOptions;
    if ((url === DOCS_PATH || url === `${DOCS_PATH}/`) && !prefersHtml(request.headers.accept)) {
      return reply.send(app.swagger());
    }
  };
  await app.register(swaggerUi, {
    routePrefix: DOCS_PATH,
    uiHooks: { onRequest: json },
    // Swagger UI follows the system's colour scheme and has its own light/dark switch.
    theme: { title: 'Fleet Console API' },
    logo: { type: 'image/svg+xml', content: LOGO },
    uiConfig: { docExpansion: 'none', filter: true, defaultModelsExpandDepth: 0, displayRequestDuration: true },
  });
});
