// The child of bench/alerts.mjs: the real app in this process (PGlite, or DATABASE_URL), an entity
// of DEVICES devices made with SQL, SILENT of them silent for 30 minutes, an unresponsive rule that
// e-mails (a real smtp-server on loopback) and sends webhooks (a loopback receiver). Prints JSON.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../apps/server/src/db/client.ts';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';

const DEVICES = Number(process.env.DEVICES ?? 100_000);
const SILENT = Number(process.env.SILENT ?? 10_000);
const SAMPLES = Number(process.env.SAMPLES ?? 200);
/** STATEMENTS=1: the statements run during the burst, timed and grouped, on stderr (PGlite). */
const STATEMENTS = process.env.STATEMENTS === '1';

const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { BENCH_PASSWORD } = await import('./bench-tenant.ts');
const { benchApp } = await import('./bench-app.ts');

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

// The e-mail server and the webhook receiver, on loopback.
const mails: number[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _s, done) {
    stream.resume();
    stream.on('end', () => (mails.push(Date.now()), done()));
  },
});
await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
const lags: number[] = [];
let firstAt = 0;
let lastAt = 0;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const now = Date.now();
    if (req.url === '/hook') {
      lags.push(now - Date.parse(JSON.parse(body).occurred_at));
      firstAt ||= now;
      lastAt = now;
    }
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const recvUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const { mkdtempSync, rmSync } = await import('node:fs');
const dataDir = mkdtempSync('/tmp/fleet-bench-alerts-');
const app = await benchApp(dataDir, {
  PORT: '0',
  ALERT_SWEEP_S: '0',
  DELIVERY_POLL_MS: '100',
  ALERT_EMAIL_QUIET_S: '2',
  SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const token = (
  (await (
    await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench_admin', password: BENCH_PASSWORD }),
    })
  ).json()) as { access_token: string }
).access_token;

await app.db.execute(sql`
  insert into devices (name, entity, mqtt_secret_hash, updated_at)
  select 'b' || lpad(to_hex(i), 11, '0'), 'bench', 'x',
    case when i <= ${SILENT} then now() - interval '30 minutes' else now() end
  from generate_series(1, ${DEVICES}) i`);
await app.db.execute(sql`delete from alert_rules where entity = 'bench'`);
await app.db.execute(sql`
  insert into alert_rules (entity, name, kind, threshold, severity, email_to, webhook)
  values ('bench', 'Device unresponsive', 'unresponsive', 20, 'warning', array['ops@bench.test'], true)`);
await app.db.execute(sql`
  insert into webhooks (entity, url, secret, events) values ('bench', ${`${recvUrl}/hook`}, 'whsec_bench', array['alert.raised'])`);

/**
 * Times every statement on the database's connections from now on (the pool's probe); the function
 * it answers stops and prints them to stderr grouped by text, most time first: what a probe waits behind.
 */
function statementLog() {
  const probe = (app as unknown as { database: Database }).database.probe;
  const times = new Map<string, number[]>();
  const texts: string[] = [];
  const observe = probe.observeQuery;
  probe.traceQuery = (text) => texts.push(text.replace(/\s+/g, ' ').trim().slice(0, 100));
  probe.observeQuery = (s) => {
    observe?.(s);
    // On PGlite's one connection statements end in the order they were sent.
    const text = texts.shift() ?? '?';
    times.set(text, [...(times.get(text) ?? []), s * 1000]);
  };
  return () => {
    probe.traceQuery = null;
    probe.observeQuery = observe;
    const rows = [...times].map(([text, ms]) => ({ text, ms, sum: ms.reduce((a, b) => a + b, 0) }));
    for (const r of rows.sort((a, b) => b.sum - a.sum).slice(0, 15))
      console.error(
        `${r.ms.length}\t${r.sum.toFixed(0)} ms\tp50 ${p(r.ms, 0.5).toFixed(1)}\tp99 ${p(r.ms, 0.99).toFixed(1)}\t${r.text}`,
      );
  };
}

/** API latencies (ms) of the alert list and count while `until` is false, 4 at a time. */
async function probe(until: () => boolean, max = SAMPLES) {
  const ms: number[] = [];
  const one = async () => {
    while (!until() && ms.length < max) {
      const t = performance.now();
      const r = await fetch(`${base}/api/v1/tenant/bench/alerts?limit=50`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await r.arrayBuffer();
      ms.push(performance.now() - t);
    }
  };
  await Promise.all([one(), one(), one(), one()]);
  return ms;
}

// Same-run baseline: a bare POST loop to the receiver (what the network and receiver allow).
const bare: number[] = [];
const bareStart = performance.now();
for (let i = 0; i < 2_000; i++) {
  const t = performance.now();
  await (await fetch(`${recvUrl}/bare`, { method: 'POST', body: '{}' })).arrayBuffer();
  bare.push(performance.now() - t);
}
const bareRate = 2_000 / ((performance.now() - bareStart) / 1000);

const idle = await probe(() => false);
const stopLog = STATEMENTS ? statementLog() : () => undefined;
const t0 = Date.now();
let done = false;
const during = probe(() => done, 100_000);
let raised = 0;
while (raised < SILENT) {
  await app.alerts.evaluator.sweep();
  const res = await app.db.execute(
    sql`select count(*)::int as n from alerts where entity = 'bench' and status = 'active'`,
  );
  raised = rowsOf<{ n: number }>(res)[0]?.n ?? 0;
}
const allRaisedMs = Date.now() - t0;
while (lags.length < SILENT || mails.length < 1) {
  if (Date.now() - t0 > 600_000) break;
  await new Promise((r) => setTimeout(r, 50));
}
const deliveredMs = Date.now() - t0;
done = true;
const busy = await during;
stopLog();
console.log(
  JSON.stringify({
    devices: DEVICES,
    silent: SILENT,
    allRaisedMs,
    deliveredMs,
    emails: mails.length,
    emailMs: (mails[0] ?? NaN) - t0,
    webhookEvents: lags.length,
    webhookPerS: lags.length / (Math.max(1, lastAt - firstAt) / 1000),
    webhookP99Ms: p(lags, 0.99),
    bareP99Ms: p(bare, 0.99),
    barePerS: bareRate,
    apiIdleP99Ms: p(idle, 0.99),
    apiBusyP99Ms: p(busy, 0.99),
  }),
);
await app.close();
await new Promise<void>((r) => receiver.close(() => r()));
await new Promise<void>((r) => smtp.close(() => r()));
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
