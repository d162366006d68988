// bench/mqtt.mjs --metrics: the server's /metrics scraped during a second app run (metrics on),
// its counters printed beside the bench's own, and the cost: ingest and command p99 with metrics
// on vs the first app run (metrics off) of the same invocation.
import { fmt, percentile, printTable, ratio } from './lib.mjs';

/** The bearer the metrics-on server is started with (METRICS_TOKEN). */
export const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** Prometheus text → Map of `name{labels}` → value. */
export function parseMetrics(text) {
  const samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Scrapes `url`/metrics every `everyMs` until stopped; answers the last scrape parsed and the scrapes' times. */
export function startScraper(url, everyMs = 1000) {
  const times = [];
  let failed = 0;
  const scrape = async () => {
    const t0 = performance.now();
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${text.slice(0, 200)}`);
    times.push(performance.now() - t0);
    return text;
  };
  const timer = setInterval(() => void scrape().catch(() => failed++), everyMs);
  return {
    async stop() {
      clearInterval(timer);
      return { samples: parseMetrics(await scrape()), times, failed };
    },
  };
}

const COMMAND_ROUTE = '/api/v1/tenant/:entity/mqtt/general/:name';

/** The scraped figures beside the bench's own counters, then metrics on vs off. */
export function printMetricsReport(off, on, o) {
  const { samples: m, times, failed } = on.scraped;
  const get = (series) => m.get(series) ?? 0;
  const own = on.finalStats;
  const cmd = on.commands.cmd;
  const get200 = (r) => r.statuses[200] ?? 0;
  // openLoop sends its warm-up requests too; they are answered, not measured.
  const warmup = Math.round(o.COMMAND_RATE * o.WARMUP);
  const sentCommands = warmup + cmd.latencies.length;
  const sentGets = warmup + on.commands.get.latencies.length;
  const same = (a, b) => (a === b ? 'agree' : `differ by ${a - b}`);
  const row = (figure, scraped, bench) => ({
    figure,
    value: String(scraped),
    baseline: String(bench),
    goal: same(scraped, bench),
  });
  printTable(
    `/metrics scraped every ${o.everyMs} ms during the metrics-on run: ${times.length} scrapes (${failed} failed), ` +
      `p50 ${fmt(percentile(times, 50), 'ms')}, p99 ${fmt(percentile(times, 99), 'ms')}; value: the last scrape, baseline: the bench's own count`,
    [
      row('MQTT messages received', get('fleet_mqtt_received_total'), own.received),
      row(
        'MQTT messages dropped',
        [...m].filter(([k]) => k.startsWith('fleet_mqtt_dropped_total')).reduce((a, [, v]) => a + v, 0),
        own.dropped,
      ),
      row('telemetry flushes', get('fleet_batcher_flush_duration_seconds_count{batcher="telemetry"}'), own.flushes),
      row(
        'command calls answered 200',
        get(`fleet_http_request_duration_seconds_count{method="POST",route="${COMMAND_ROUTE}",status_code="200"}`),
        sentCommands - (cmd.latencies.length - get200(cmd)),
      ),
      row(
        'commands settled: vibrate succeeded',
        get('fleet_commands_settled_total{type="vibrate",state="succeeded"}'),
        get200(cmd) + warmup,
      ),
      row(
        'GET device answered 200',
        get(
          'fleet_http_request_duration_seconds_count{method="GET",route="/api/v1/tenant/:entity/device/:name",status_code="200"}',
        ),
        sentGets,
      ),
      row('devices online (database)', get('fleet_devices{state="online"}'), on.verify.online),
    ],
  );
  const p99 = (r) => percentile(r.latencies, 99);
  printTable('the cost: metrics on (scraped) vs off, same invocation; goal: within 5 %', [
    {
      figure: 'ingest into the database',
      value: fmt(on.ingest.rate, 'msg/s', 0),
      baseline: fmt(off.ingest.rate, 'msg/s', 0),
      ratio: ratio(on.ingest.rate, off.ingest.rate),
      goal: '≥ 0.95×',
    },
    {
      figure: 'command round trip p99',
      value: fmt(p99(cmd), 'ms', 2),
      baseline: fmt(p99(off.commands.cmd), 'ms', 2),
      ratio: ratio(p99(cmd), p99(off.commands.cmd)),
      goal: '≤ 1.05×',
    },
    {
      figure: 'GET device p99',
      value: fmt(p99(on.commands.get), 'ms', 2),
      baseline: fmt(p99(off.commands.get), 'ms', 2),
      ratio: ratio(p99(on.commands.get), p99(off.commands.get)),
    },
    {
      figure: 'server CPU per command',
      value: fmt(cmd.cpuMsPerReq, 'ms', 2),
      baseline: fmt(off.commands.cmd.cpuMsPerReq, 'ms', 2),
      ratio: ratio(cmd.cpuMsPerReq, off.commands.cmd.cpuMsPerReq),
    },
  ]);
}
