import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * The request's response stands for its mark: open until it is finished or its connection closed.
 * Node sets `destroyed` when it emits the response's 'close' (after the last byte is flushed, or
 * when the client goes away), so no listener or object per request is needed to know.
 */
const context = new AsyncLocalStorage<ServerResponse>();

/**
 * True while the code running was started by an HTTP request that is still open: someone waits
 * for its answer. Work a request leaves behind (a timer, a loop it started) counts as background
 * once the response is gone.
 */
export function isInteractive(): boolean {
  return context.getStore()?.destroyed === false;
}

/**
 * Marks every request of `app` as interactive for the database's priority lane (priority-lane.ts),
 * from its first hook to its response. The later hooks and the handler run in the context this
 * hook enters; Fastify parses a body inside it too (an AsyncResource of the request), which the
 * test checks.
 */
export function markRequestsInteractive(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => context.run(reply.raw, done));
}
