import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** One HTTP request's mark: open until its response is finished or its connection closed. */
interface Mark {
  open: boolean;
}

const context = new AsyncLocalStorage<Mark>();

/**
 * True while the code running was started by an HTTP request that is still open: someone waits
 * for its answer. Work a request leaves behind (a timer, a loop it started) counts as background
 * once the response is gone.
 */
export function isInteractive(): boolean {
  return context.getStore()?.open === true;
}

/**
 * Marks every request of `app` as interactive for the database's priority lane (priority-lane.ts),
 * from its first hook to its response. The later hooks and the handler run in the context this
 * hook enters; Fastify parses a body inside it too (an AsyncResource of the request), which the
 * test checks.
 */
export function markRequestsInteractive(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    const mark: Mark = { open: true };
    reply.raw.once('close', () => (mark.open = false));
    context.run(mark, done);
  });
}
