import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase, type Database, type Db } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
  }
}

/** Opens the database (PGlite or PostgreSQL), applies migrations, and closes it with the app. */
export const dbPlugin = fp(
  async (app: FastifyInstance, opts: { databaseUrl?: string; dataDir: string; opened?: Promise<Database> }) => {
    const database = await (opts.opened ?? openDatabase(opts));
    app.decorate('database', database);
    app.decorate('db', database.db);
    app.addHook('onClose', async () => database.close());
    app.log.info({ kind: database.kind }, 'database ready');
  },
);
