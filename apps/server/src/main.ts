import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';

const config = loadConfig();
// The database starts first (PGlite in its own thread) while the rest of the server loads: the
// build splits the bundle so Fastify, the broker and the routes are loaded by the import below.
const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
database.catch(() => undefined); // awaited (and reported) by build()
const { build } = await import('./app.ts');
const app = await build(config, {
  database,
  onGeneratedPassword(username, password) {
    // Printed once, on the first start with an empty database; it is not stored in clear anywhere.
    process.stdout.write(
      `\n  Superadmin created: ${username}\n  Password: ${password}\n  (shown once; set ADMIN_PASSWORD to choose it)\n\n`,
    );
  },
});

/** In-flight work gets this long after SIGTERM; then the process exits anyway, within 10 s. */
const FORCE_EXIT_MS = 8_000;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  // Armed before anything else (even the log line), and unref'd so it never keeps the process up.
  const force = setTimeout(() => {
    app.log.error(`shutdown took longer than ${FORCE_EXIT_MS / 1000} s; exiting`);
    process.exit(1);
  }, FORCE_EXIT_MS);
  force.unref();
  app.log.info({ signal }, 'shutting down');
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

await app.listen({ port: config.PORT, host: config.HOST });
