// Device list at fleet scale: fills 100,000 devices and prints p50/p99 of the first page, deep
// and middle pages, each filter and a sort, on PGlite — and on PostgreSQL too when DATABASE_URL
// is set (`scripts/ci/with-services.sh node bench/device-list.mjs`). Baseline: the first page.
import { ADMIN, HOST, fmt, freePort, login, main, percentile, printTable, ratio, spawnNode, tmpDir } from './lib.mjs';

const N = Number(process.argv.find((a) => a.startsWith('--devices='))?.split('=')[1] ?? 100_000);
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 100);

const QUERIES = [
  ['first page (20, newest first)', 'limit=20&offset=0'],
  ['deep page (last 20)', `limit=20&offset=${Math.floor((N * 0.95) / 20) * 20 - 20}`],
  ['middle page', `limit=20&offset=${Math.floor((N * 0.95) / 40) * 20}`],
  ['filter status=ERROR', 'limit=20&status=ERROR'],
  ['filter battery=High', 'limit=20&battery=High'],
  ['filter battery=Medium', 'limit=20&battery=Medium'],
  ['filter battery=Low', 'limit=20&battery=Low'],
  ['filter battery=Charging', 'limit=20&battery=Charging'],
  ['filter fw_version=1.2.1', 'limit=20&fw_version=1.2.1'],
  ...['24h', '3d', '1w', '30d', '90d', '180d', '365d'].map((r) => [`filter created=${r}`, `limit=20&created=${r}`]),
  ['search "lobby" (id or description)', 'limit=20&search=lobby'],
  ['sort battery asc, first page', 'limit=20&sort=battery&order=asc'],
  ['status + battery + fw combined', 'limit=20&status=ALLOCATED&battery=High&fw_version=1.0.0'],
  // Groups (issue 10): nine devices in ten stand in one of 50 groups.
  ['filter group=G_07', 'limit=20&group=G_07'],
  ['filter group=G_07, deep page', 'limit=20&group=G_07&offset=1700'],
  ['filter group + status', 'limit=20&group=G_07&status=WAITING'],
  ['filter facets (groups included)', null, 'device/facets'],
  ['filter group list with device counts', null, 'dispenser?limit=0'],
];

async function measure(label, env) {
  const dataDir = tmpDir();
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', 'bench/device-server.ts'], {
    env: { ...env, PORT: String(port), DATA_DIR: dataDir, DEVICES: String(N) },
  });
  const info = await new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const line = child.stdoutText.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`device server exited ${code}\n${child.output}`)));
  });
  const url = `http://${HOST}:${port}`;
  const { access_token } = await login(url, { name: 'bench_admin', password: ADMIN.password });
  const headers = { authorization: `Bearer ${access_token}` };
  const results = [];
  for (const [name, query, path] of QUERIES) {
    const times = [];
    for (let i = 0; i < RUNS + 5; i++) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v1/tenant/bench/${path ?? `device?${query}`}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path ?? query} answered ${res.status}`);
      if (i >= 5) times.push(performance.now() - t0);
    }
    results.push({ name, p50: percentile(times, 50), p99: percentile(times, 99) });
  }
  const first = results[0];
  printTable(
    `${label}: ${N.toLocaleString('en-US')} devices (filled in ${fmt(info.fillMs / 1000, 's')}), ${RUNS} requests each, over HTTP`,
    [
      ...results.flatMap((r) => [
        {
          figure: `${r.name} p50`,
          value: fmt(r.p50, 'ms'),
          baseline: fmt(first.p50, 'ms'),
          ratio: ratio(r.p50, first.p50),
          goal: '',
        },
        {
          figure: `${r.name} p99`,
          value: fmt(r.p99, 'ms'),
          baseline: fmt(first.p99, 'ms'),
          ratio: ratio(r.p99, first.p99),
          goal: r.name.startsWith('deep') ? '≤ 1.2× first' : r.name.startsWith('filter') ? '≤ 50 ms' : '',
        },
      ]),
    ],
  );
  child.kill('SIGTERM');
}

await main(async () => {
  await measure('PGlite (embedded)', { DATABASE_URL: '' });
  if (process.env.DATABASE_URL) await measure('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL });
  else console.log('\n(PostgreSQL: run `scripts/ci/with-services.sh node bench/device-list.mjs`)');
});
