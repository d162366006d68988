import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOKEN_HASH_PREFIX } from '@fleet/shared/audit-actions';
import type { AuditActor, AuditContext } from '../domain/audit/audit-context.ts';
import { recordAudit } from '../domain/audit/audited.ts';
import type { Deps } from '../domain/deps.ts';
import { PERMANENT_TOKEN_PREFIX, hashToken } from '../lib/tokens.ts';
import { bearerToken } from '../plugins/auth.ts';

const contexts = new WeakMap<FastifyRequest, AuditContext>();

function actorOf(request: FastifyRequest, deps: Deps): AuditActor | null {
  if (!request.auth) return null;
  const token = bearerToken(request);
  if (token?.startsWith(PERMANENT_TOKEN_PREFIX)) {
    return {
      kind: 'token',
      id: hashToken(token).slice(0, TOKEN_HASH_PREFIX),
      name: deps.apiTokens.describe(token) ?? '',
      account: request.auth.sub,
    };
  }
  return { kind: 'account', id: request.auth.sub, name: request.auth.sub };
}

/**
 * The audit context of a request: its actor (the signed-in account, or the permanent token by
 * its description and hash prefix; nobody yet before sign-in), address and user agent, and the
 * entity a superadmin acts inside. One object a request, so its entries mark it recorded.
 */
export function auditContext(request: FastifyRequest, deps: Deps): AuditContext {
  let ctx = contexts.get(request);
  if (!ctx) {
    const acting = (request as { actingEntity?: string | null }).actingEntity;
    ctx = {
      actor: actorOf(request, deps) ?? { kind: 'account', id: null, name: null },
      address: request.ip ?? null,
      userAgent: request.headers['user-agent'] ?? null,
      entity: acting ?? request.auth?.entity ?? null,
      requestId: request.id,
      ...(deps.unaudited ? { unaudited: true } : {}),
    };
    contexts.set(request, ctx);
  }
  return ctx;
}

/**
 * Records every authenticated request refused with 403 that recorded nothing itself
 * (`access.deny`, target the route): refusals change nothing, so no transaction is shared.
 */
export function auditRefusals(api: FastifyInstance, deps: Deps): void {
  api.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 403 || !request.auth) return;
    const ctx = auditContext(request, deps);
    if (ctx.recorded) return;
    const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    await recordAudit(deps.db, ctx, {
      action: 'access.deny',
      target: { type: 'route', name: route.slice(0, 256) },
      outcome: 'failure',
      reason: 'Forbidden',
    }).catch((err) => request.log.error({ err }, 'recording a refusal'));
  });
}
