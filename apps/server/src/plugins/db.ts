import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../db/client.ts';
import { markRequestsInteractive } from '../db/interactive-context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

/** The opened (and migrated) database on the app, closed with it. build() opens it first. */
export const dbPlugin = fp(async function dbPlugin(app: FastifyInstance, opts: { database: Database }) {
  app.decorate('database', opts.database);
  app.decorate('db', opts.database.db);
  app.addHook('onClose', async () => opts.database.close());
  // Queries of an open request take the database's connections before background work's.
  markRequestsInteractive(app);
  app.log.info({ kind: opts.database.kind }, 'database ready');
});
