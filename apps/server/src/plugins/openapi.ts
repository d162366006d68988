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

// Swagger UI styles `html.dark-mode`: follow the system's colour scheme. Served as a file under
// the page's static folder, not inline, so the page stays within the CSP's `script-src 'self'`.
const DARK_MODE_JS = `(function () {
  var query = window.matchMedia('(prefers-color-scheme: dark)');
  var apply = function () { document.documentElement.classList.toggle('dark-mode', query.matches); };
  apply();
  query.addEventListener('change', apply);
})();
`;

/**
 * OpenAPI 3.1 built from the routes' zod schemas, at /api/docs: the JSON for clients, Swagger UI
 * (served from node_modules, no outside resources, within the CSP) for a browser
 * (docs/decisions/2026-11-28-api-reference-page.md).
 */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
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
    theme: {
      title: 'Fleet Console API',
      js: [{ filename: 'dark-mode.js', content: DARK_MODE_JS }],
    },
    uiConfig: { docExpansion: 'none', filter: true, defaultModelsExpandDepth: 0, displayRequestDuration: true },
  });
});
