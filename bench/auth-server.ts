// Child process for bench/auth-throughput.mjs (run with `node --import tsx`): serves the bench
// routes on 127.0.0.1:PORT and prints "READY" once listening. Not meant to be run by hand.
//   MODE=fastify: the real app from build() (sources, not dist, so the routes can be added before
//                 listening), plus GET /bench/open and GET /bench/authed (preHandler app.authenticate).
//   MODE=bare:    a node:http server answering the same JSON body: the floor for any framework.
//                 HEADERS (JSON) adds fixed response headers, e.g. the app's security headers, so
//                 that the cost of sending them can be told apart from the cost of computing them.
import http from 'node:http';

const port = Number(process.env.PORT);
const host = '127.0.0.1';
const body = JSON.stringify({ ok: true });

if (process.env.MODE === 'bare') {
  const headers = {
    ...JSON.parse(process.env.HEADERS ?? '{}'),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  };
  const server = http.createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  server.listen(port, host, () => console.log('READY'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  // Imported lazily so that bare mode loads nothing of the server.
  const { build } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const config = loadConfig({
    DATA_DIR: process.env.DATA_DIR,
    ADMIN_USERNAME: process.env.ADMIN_USERNAME,
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
  });
  const app = await build(config, { logger: false });
  app.get('/bench/open', async () => ({ ok: true }));
  app.get('/bench/authed', { preHandler: app.authenticate }, async () => ({ ok: true }));
  await app.listen({ port, host });
  console.log('READY');
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
