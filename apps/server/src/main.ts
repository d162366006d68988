import { loadConfig } from './config.ts';
import { exitOnSignals } from './lib/exit-on-signals.ts';
import { openDatabase } from './db/client.ts';
import { trimYoungGenerationWhenQuiet } from './lib/young-generation-trim.ts';

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

exitOnSignals(app, 'server');

await app.listen({ port: config.PORT, host: config.HOST });
// Start-up leaves V8's young generation at its largest; a quiet server gives it back (bench/notes/server-memory.md).
trimYoungGenerationWhenQuiet();
