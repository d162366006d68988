// bench/mqtt.mjs --commands-only: the command round trip alone, metrics off and on alternated in
// one invocation; each run's figures, then the medians of the runs, metrics on vs off.
import { fmt, percentile, printTable, ratio } from './lib.mjs';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `runs`: [{ metrics, commands: { get, cmd }, scraped? }] in the order they ran. */
export function printCommandsReport(runs, o) {
  const figures = (r) => {
    const { get, cmd, quiet } = r.commands;
    return {
      quietP50: quiet ? percentile(quiet.latencies, 50) : null,
      quietP99: quiet ? percentile(quiet.latencies, 99) : null,
      quietCpu: quiet?.cpuMsPerReq ?? null,
      p50: percentile(cmd.latencies, 50),
      p99: percentile(cmd.latencies, 99),
      bad: cmd.latencies.length - (cmd.statuses[200] ?? 0),
      cpu: cmd.cpuMsPerReq,
      getP99: percentile(get.latencies, 99),
      getCpu: get.cpuMsPerReq,
      scrapeP50: r.scraped ? percentile(r.scraped.times, 50) : null,
      scrapeP99: r.scraped ? percentile(r.scraped.times, 99) : null,
    };
  };
  const all = runs.map((r) => ({ metrics: r.metrics, ...figures(r) }));
  const quiet = all[0]?.quietP50 !== null;
  printTable(
    `command round trip, ${o.COMMAND_RATE}/s open loop for ${o.COMMAND_SECONDS} s, ${o.REPLIERS} of ${o.N} devices answering, ${o.db}: each run in order`,
    all.map((f, i) => ({
      figure: `run ${i + 1}, metrics ${f.metrics ? 'on (scraped every 1 s)' : 'off'}`,
      value:
        `p50 ${fmt(f.p50, 'ms', 2)} / p99 ${fmt(f.p99, 'ms', 2)}, ${fmt(f.cpu, 'ms', 2)} CPU/command, ${f.bad} not 200` +
        (f.scrapeP50 === null ? '' : `; scrape p50 ${fmt(f.scrapeP50, 'ms', 1)} / p99 ${fmt(f.scrapeP99, 'ms', 1)}`) +
        (quiet
          ? `; at ${o.QUIET_RATE}/s p50 ${fmt(f.quietP50, 'ms', 2)} / p99 ${fmt(f.quietP99, 'ms', 2)}, ${fmt(f.quietCpu, 'ms', 2)} CPU`
          : ''),
      baseline: `GET device p99 ${fmt(f.getP99, 'ms', 2)}, ${fmt(f.getCpu, 'ms', 2)} CPU`,
    })),
  );
  const of = (metrics, key) => median(all.filter((f) => f.metrics === metrics).map((f) => f[key]));
  const row = (figure, key, unit, goal = '') => ({
    figure,
    value: fmt(of(true, key), unit, 2),
    baseline: fmt(of(false, key), unit, 2),
    ratio: ratio(of(true, key), of(false, key)),
    goal,
  });
  const atQuiet = quiet
    ? [
        row(`at ${o.QUIET_RATE}/s: command round trip p50`, 'quietP50', 'ms', '≤ 5 ms'),
        row(`at ${o.QUIET_RATE}/s: command round trip p99`, 'quietP99', 'ms', 'on ≤ 1.05× off'),
        row(`at ${o.QUIET_RATE}/s: server CPU per command`, 'quietCpu', 'ms'),
      ]
    : [];
  printTable('medians of the runs: metrics on (value) vs off (baseline)', [
    ...atQuiet,
    row(`at ${o.COMMAND_RATE}/s: command round trip p50`, 'p50', 'ms', '≤ 5 ms'),
    row(`at ${o.COMMAND_RATE}/s: command round trip p99`, 'p99', 'ms', '≤ 25 ms, on ≤ 1.05× off'),
    row(`at ${o.COMMAND_RATE}/s: server CPU per command`, 'cpu', 'ms'),
    row('GET device p99 (baseline route)', 'getP99', 'ms'),
    {
      figure: 'one /metrics scrape p50 / p99',
      value: `${fmt(of(true, 'scrapeP50'), 'ms', 1)} / ${fmt(of(true, 'scrapeP99'), 'ms', 1)}`,
    },
  ]);
}
