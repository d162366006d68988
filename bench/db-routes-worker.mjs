// Worker of db-routes.mjs: PGlite in this thread, reached through postMessage (route A) or a
// PostgreSQL-protocol socket (route B).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const db = await PGlite.create(workerData.dir, { extensions: { pg_trgm } });
if (workerData.route === 'socket') {
  const { PGLiteSocketServer } = await import(workerData.socketModule);
  const server = new PGLiteSocketServer({ db, path: workerData.socketPath });
  await server.start();
  parentPort.postMessage({ ready: true });
  parentPort.on('message', async (m) => {
    if (m.close) {
      await server.stop();
      await db.close();
      parentPort.postMessage({ closed: true });
    }
  });
} else {
  parentPort.postMessage({ ready: true });
  parentPort.on('message', async (m) => {
    if (m.close) {
      await db.close();
      return parentPort.postMessage({ closed: true });
    }
    try {
      const r = await db.query(m.sql, m.params, { rowMode: 'array' });
      parentPort.postMessage({ id: m.id, rows: r.rows });
    } catch (err) {
      parentPort.postMessage({ id: m.id, error: String(err) });
    }
  });
}
