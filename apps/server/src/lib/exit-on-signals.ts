import type { FastifyInstance } from 'fastify';

/** In-flight work gets this long after SIGTERM; then the process exits anyway, within 10 s. */
export const FORCE_EXIT_MS = 8_000;

/**
 * On SIGTERM or SIGINT, closes the app (in-flight requests finish, streams and sockets close,
 * pending writes land) and exits 0, or 1 on an error or once FORCE_EXIT_MS has passed.
 */
export function exitOnSignals(app: FastifyInstance, label = 'server'): void {
  let closing = false;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    // Armed before anything else (even the log line), and unref'd so it never keeps the process up.
    const force = setTimeout(() => {
      app.log.error(`${label}: shutdown took longer than ${FORCE_EXIT_MS / 1000} s; exiting`);
      process.exit(1);
    }, FORCE_EXIT_MS);
    force.unref();
    app.log.info({ signal }, `${label} shutting down`);
    // A request whose bytes reached this process before the signal is served, not cut: two turns
    // of the event loop let a connection accepted in the signal's turn be read and routed first
    // (closing answers later arrivals 503 and drops connections that have sent nothing).
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    try {
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
