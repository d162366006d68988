// Child process for bench/audit-cost.mjs (run with `node --import tsx`): the real app from sources
// (PGlite, or PostgreSQL with DATABASE_URL; embedded broker) on 127.0.0.1:PORT with entity `bench`
// and its admin. AUDIT=off builds it with BuildOptions.unaudited: the API's changes run as before
// the audit log (no transaction of their own, no entry) — the bench's same-run baseline.
// Prints one JSON line {ready} once listening.
import { benchApp } from './bench-app.ts';

const app = await benchApp(process.env.DATA_DIR!, {}, { unaudited: process.env.AUDIT === 'off' });
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(JSON.stringify({ ready: true }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
