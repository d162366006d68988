// The three tables of bench/mqtt.mjs: telemetry ingest, command round trip (not with --ingest-only), server memory.
import { fmt, percentile, printTable, ratio } from './lib.mjs';

/** The three tables: ingest, command round trip, memory. */
export function printReport(app, base, o) {
  const { N, THREADS, WINDOW, DURATION, CONNECT_RATE } = o;
  const a = app.ingest;
  const b = base.ingest;
  const rate = (v) => fmt(v, 'msg/s', 0);
  const cores = (v) => fmt(v, 'cores', 2);
  const ms = (v) => fmt(v, 'ms', 1);
  printTable(
    `telemetry ingest: ${N} devices, ${DURATION} s flat out, QoS 1, ${THREADS} threads × ${WINDOW} in flight (node ${process.version})`,
    [
      {
        figure: 'devices connected',
        value: `${app.connect.ok} in ${fmt(app.connect.ms / 1000, 's')}`,
        baseline: `${base.connect.ok} in ${fmt(base.connect.ms / 1000, 's')}`,
        goal: `${N} at ${CONNECT_RATE}/s`,
      },
      {
        figure: 'connect rate (to the last CONNACK)',
        value: fmt(app.connect.rate, '/s', 0),
        baseline: fmt(base.connect.rate, '/s', 0),
        ratio: ratio(app.connect.rate, base.connect.rate, true),
        goal: '≥ 1,000/s',
      },
      {
        figure: 'connect ramp: broker CPU (accept queue max)',
        value: `${cores(app.connect.serverCores)} (${app.connect.acceptQueue})`,
        baseline: `${cores(base.connect.serverCores)} (${base.connect.acceptQueue})`,
      },
      { figure: 'connect ramp: device look-ups in the database', value: `${app.connect.directoryLoads}` },
      {
        figure: 'messages/s into the database vs raw Aedes',
        value: rate(a.rate),
        baseline: rate(b.rate),
        ratio: ratio(a.rate, b.rate, true),
        goal: '≥ 5,000 msg/s',
      },
      {
        figure: 'messages acknowledged (PUBACK)',
        value: `${a.acked} of ${a.sent}`,
        baseline: `${b.acked} of ${b.sent}`,
      },
      {
        figure: 'rows written (flushes, rows/flush)',
        value: `${a.flushed} (${a.flushes}, ${fmt(a.flushed / a.flushes, '', 0)})`,
        baseline: `${a.merged} merged`,
      },
      { figure: 'last reports in the database', value: `${app.verify.last} of ${N}`, goal: `${N}` },
      { figure: 'CPU: server vs bare Aedes process', value: cores(a.serverCores), baseline: cores(b.serverCores) },
      { figure: 'CPU: load generator (this process)', value: cores(a.genCores), baseline: cores(b.genCores) },
      {
        figure: 'busiest generator thread, event loop busy',
        value: fmt(a.maxElu * 100, '%', 0),
        baseline: fmt(b.maxElu * 100, '%', 0),
      },
      {
        figure: 'broker event-loop delay p99 / max',
        value: `${ms(a.loop.delayP99)} / ${ms(a.loop.delayMax)}`,
        baseline: `${ms(b.loop.delayP99)} / ${ms(b.loop.delayMax)}`,
      },
    ],
  );
  if (app.commands) printCommands(app.commands, o);
  printMemory(app, base, o);
}

/** The command round trip beside GET device at the same rate. */
function printCommands({ get, cmd }, { COMMAND_RATE, COMMAND_SECONDS, REPLIERS, WARMUP }) {
  const ms = (v) => fmt(v, 'ms', 1);
  const p = (r, q) => percentile(r.latencies, q);
  const bad = (r) => r.latencies.length - (r.statuses[200] ?? 0);
  printTable(
    `command round trip: ${COMMAND_RATE}/s open loop for ${COMMAND_SECONDS} s (after ${WARMUP} s warm-up), ${REPLIERS} devices answering`,
    [
      ...[
        ['p50', 50, '≤ 5 ms'],
        ['p99', 99, '≤ 25 ms'],
        ['max', 100, ''],
      ].map(([name, q, goal]) => ({
        figure: `POST mqtt/general/{device} vs GET device, ${name}`,
        value: fmt(p(cmd, q), 'ms', 2),
        baseline: fmt(p(get, q), 'ms', 2),
        ratio: ratio(p(cmd, q), p(get, q)),
        goal,
      })),
      {
        figure: 'answers that were not 200',
        value: `${bad(cmd)} of ${cmd.latencies.length}`,
        baseline: `${bad(get)} of ${get.latencies.length}`,
      },
      {
        figure: 'server CPU per request',
        value: fmt(cmd.cpuMsPerReq, 'ms', 2),
        baseline: fmt(get.cpuMsPerReq, 'ms', 2),
        ratio: ratio(cmd.cpuMsPerReq, get.cpuMsPerReq),
      },
      {
        figure: 'server event-loop delay p99 / max',
        value: `${ms(cmd.loop.delayP99)} / ${ms(cmd.loop.delayMax)}`,
        baseline: `${ms(get.loop.delayP99)} / ${ms(get.loop.delayMax)}`,
      },
      {
        figure: 'server GC pauses, total / longest',
        value: `${ms(cmd.loop.gcMs)} / ${ms(cmd.loop.gcMax)}`,
        baseline: `${ms(get.loop.gcMs)} / ${ms(get.loop.gcMax)}`,
      },
    ],
  );
}

/** The server's memory idle, connected and after ingest, beside bare Aedes's; per connected device. */
function printMemory(app, base, { N, db }) {
  const mb = (v) => fmt(v / 1e6, 'MB', 0);
  const when = { idle: 'idle', connected: `${N} devices connected`, after: 'after ingest' };
  // Per device that did connect: a run that fell short is not spread over devices it never held.
  const perConn = (r, m) => (r.mem.connected[m] - r.mem.idle[m]) / r.connect.ok;
  printTable(
    `memory of the server process (child, after a full GC) vs a bare Aedes process; ${db === 'PGlite' ? 'PGlite runs inside the server' : db}`,
    [
      ...Object.entries(when).flatMap(([k, label]) =>
        ['rss', 'heapUsed'].map((m) => ({
          figure: `${m === 'rss' ? 'RSS' : 'heap used'}, ${label}`,
          value: mb(app.mem[k][m]),
          baseline: mb(base.mem[k][m]),
          ratio: ratio(app.mem[k][m], base.mem[k][m]),
        })),
      ),
      ...['rss', 'heapUsed'].map((m) => ({
        figure: `${m === 'rss' ? 'RSS' : 'heap used'} per connected device`,
        value: fmt(perConn(app, m) / 1000, 'kB'),
        baseline: fmt(perConn(base, m) / 1000, 'kB'),
        ratio: ratio(perConn(app, m), perConn(base, m)),
        goal: m === 'rss' ? '≤ 10 kB' : '',
      })),
    ],
  );
}

/** `--history`: the ingest with telemetry history written (the first app run) vs the same app without. */
export function printHistoryReport(on, off, { N, DURATION, PG }) {
  const a = on.ingest;
  const b = off.ingest;
  const rate = (v) => fmt(v, 'msg/s', 0);
  printTable(
    `telemetry ingest with history written vs history off: ${N} devices, ${DURATION} s flat out, ${PG ? 'PostgreSQL' : 'PGlite'}`,
    [
      {
        figure: 'messages/s into the database, history on vs off',
        value: rate(a.rate),
        baseline: rate(b.rate),
        ratio: ratio(a.rate, b.rate, true),
        goal: PG ? '≥ 90 %, ≥ 10,000 msg/s' : '≥ 90 %',
      },
      {
        figure: 'messages acknowledged (PUBACK)',
        value: `${a.acked} of ${a.sent}`,
        baseline: `${b.acked} of ${b.sent}`,
      },
      {
        figure: 'device rows written (flushes)',
        value: `${a.flushed} (${a.flushes})`,
        baseline: `${b.flushed} (${b.flushes})`,
      },
      { figure: 'history rows written (whole run)', value: `${on.points}`, baseline: `${off.points}`, goal: '— / 0' },
      {
        figure: 'drain: last ack → all in the database',
        value: fmt(a.drainMs, 'ms', 0),
        baseline: fmt(b.drainMs, 'ms', 0),
        ratio: ratio(a.drainMs, b.drainMs),
      },
      {
        figure: 'CPU: server process',
        value: fmt(a.serverCores, 'cores', 2),
        baseline: fmt(b.serverCores, 'cores', 2),
        ratio: ratio(a.serverCores, b.serverCores),
      },
      {
        figure: 'last reports in the database',
        value: `${on.verify.last} of ${N}`,
        baseline: `${off.verify.last} of ${N}`,
        goal: `${N}`,
      },
      {
        figure: 'RSS after ingest (after a full GC)',
        value: fmt(on.mem.after.rss / 1e6, 'MB', 0),
        baseline: fmt(off.mem.after.rss / 1e6, 'MB', 0),
        ratio: ratio(on.mem.after.rss, off.mem.after.rss),
      },
    ],
  );
}
