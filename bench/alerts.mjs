// Issue 29: 10,000 of 100,000 devices going silent at once. Times until every alert is raised and
// the one e-mail and the webhook burst are delivered (bench/alerts-run.ts, the real app in a child
// process, a real smtp-server and a webhook receiver on loopback), the API's p99 during it beside
// idle, and webhook delivery (events/s, p99 event→receiver) beside a bare POST loop to the same
// receiver. The e-mail's quiet window is 2 s here (60 s by default). DATABASE_URL: PostgreSQL.
// --statements: the statements run during the burst, timed and grouped by text (what a probe waits behind).
// Usage: node bench/alerts.mjs [--devices=100000] [--silent=10000] [--statements]
import path from 'node:path';
import { arg, fmt, main, printTable, ratio, root, spawnNode } from './lib.mjs';

const DEVICES = arg('devices', 100_000);
const SILENT = arg('silent', 10_000);
const STATEMENTS = process.argv.includes('--statements');

main(async () => {
  const child = spawnNode(['--import', 'tsx', path.join(root, 'bench/alerts-run.ts')], {
    env: { DEVICES: String(DEVICES), SILENT: String(SILENT), STATEMENTS: STATEMENTS ? '1' : '0' },
  });
  const { code } = await child.exited;
  const line = child.output.split('\n').find((l) => l.startsWith('{"devices"'));
  if (code !== 0 || !line) throw new Error(`alerts-run failed (${code}):\n${child.output}`);
  const r = JSON.parse(line);
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  printTable(`${r.devices} devices, ${r.silent} going silent at once (${db})`, [
    { figure: 'every alert raised', value: fmt(r.allRaisedMs, 'ms', 0) },
    {
      figure: 'e-mails sent (first at)',
      value: `${r.emails} (${fmt(r.emailMs, 'ms', 0)})`,
      goal: '1, after the 2 s quiet window',
    },
    {
      figure: 'webhook events delivered (all by)',
      value: `${r.webhookEvents} (${fmt(r.deliveredMs, 'ms', 0)})`,
      goal: `${r.silent}`,
    },
    {
      figure: 'webhook events/s',
      value: fmt(r.webhookPerS),
      baseline: `${fmt(r.barePerS)} bare POSTs/s`,
      ratio: ratio(r.webhookPerS, r.barePerS),
    },
    {
      figure: 'webhook p99 event→receiver',
      value: fmt(r.webhookP99Ms, 'ms', 0),
      baseline: `${fmt(r.bareP99Ms, 'ms')} bare POST p99`,
    },
    {
      figure: 'API p99 during the burst',
      value: fmt(r.apiBusyP99Ms, 'ms'),
      baseline: `${fmt(r.apiIdleP99Ms, 'ms')} idle`,
      ratio: ratio(r.apiBusyP99Ms, r.apiIdleP99Ms),
      goal: '≤ 2×',
    },
  ]);
  if (STATEMENTS) {
    console.log('\nStatements during the burst (count, total, p50 and p99 ms, text), most time first:');
    for (const l of child.output.split('\n').filter((x) => /^\d+\t/.test(x))) console.log(`  ${l}`);
  }
});
