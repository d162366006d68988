// The table rows of bench/flood.mjs (figure, value, baseline, ratio, goal), from its results.
import { fmt, ratio } from './report.mjs';

const mb = (v) => fmt(v, 'MB', 1);

/** The rows of one flood: the list beside idle, the device, the memory, what the server did. */
export function floodRows(r, settleS) {
  const name = r.label;
  const rows = [
    {
      figure: `${name}: list p50`,
      value: fmt(r.during.p50, 'ms'),
      baseline: fmt(r.idle.p50, 'ms'),
      ratio: ratio(r.during.p50, r.idle.p50),
      goal: '',
    },
    {
      figure: `${name}: list p99`,
      value: fmt(r.during.p99, 'ms'),
      baseline: fmt(r.idle.p99, 'ms'),
      ratio: ratio(r.during.p99, r.idle.p99),
      goal: '≤ 2× idle',
    },
    {
      figure: `${name}: list answers (not 200)`,
      value: `${r.during.n} (${r.during.bad || 'none'})`,
      baseline: `${r.idle.n} (${r.idle.bad || 'none'})`,
    },
    {
      figure: `${name}: publish rate achieved`,
      value: fmt(r.sent.rate, 'msg/s', 0),
      baseline: fmt(r.rate, 'msg/s', 0),
      ratio: ratio(r.sent.rate, r.rate, true),
      goal: '≈ asked',
    },
    {
      figure: `${name}: CPU of the server; of the flooding device`,
      value: fmt(r.cores.server * 100, '%', 0),
      baseline: fmt(r.cores.device * 100, '%', 0),
      goal: 'one core = 100 %',
    },
    {
      figure: `${name}: device cut off / reconnect refused`,
      value: `${r.sent.cutOff} / ${r.sent.refused}`,
      baseline: `${r.sent.connects} connects`,
      goal: r.sent.cutOff ? `first at ${fmt(r.sent.cutOffAtMs[0] / 1000, 's')}` : '',
    },
    {
      figure: `${name}: server RSS peak growth`,
      value: mb(r.rssPeak - r.rssBefore),
      baseline: mb(r.rssBefore),
      ratio: ratio(r.rssPeak, r.rssBefore),
      goal: '≤ 100 MB' + (r.capped ? ' (cap hit)' : ''),
    },
    {
      figure: `${name}: server RSS growth, settled`,
      value: mb(r.rssAfter - r.rssBefore),
      baseline: mb(r.rssBefore),
      ratio: ratio(r.rssAfter, r.rssBefore),
      goal: '',
    },
    {
      figure: `${name}: server quiet again, after the flood's end`,
      value: Number.isNaN(r.settledS) ? `> ${settleS} s` : fmt(r.settledS, 's'),
      baseline: '',
    },
    {
      figure: `${name}: beacon events stored`,
      value: r.events.toLocaleString('en-US'),
      baseline: `${(r.sent.mix.beacon ?? 0).toLocaleString('en-US')} sent`,
      ratio: ratio(r.events, r.sent.mix.beacon, true),
    },
  ];
  for (const [counter, n] of Object.entries(r.counters))
    rows.push({
      figure: `${name}: mqtt ${counter}`,
      value: n.toLocaleString('en-US'),
      baseline: `${r.sent.sent.toLocaleString('en-US')} sent`,
      ratio: ratio(n, r.sent.sent, true),
    });
  return rows;
}

/** The rows of K oversized CONNECTs: memory per connection, held and released, what the server did. */
export function connectRows(r, connectMb) {
  const name = `oversized CONNECT ×${r.k}`;
  return [
    {
      figure: `${name}: RSS growth per connection`,
      value: mb((r.peak - r.before) / r.k),
      baseline: mb(r.before),
      ratio: '',
      goal: '≤ 1 MB' + (r.capped ? ' (cap hit)' : ''),
    },
    {
      figure: `${name}: RSS growth, connections open`,
      value: mb(r.held - r.before),
      baseline: mb(r.before),
      ratio: ratio(r.held, r.before),
    },
    {
      figure: `${name}: RSS growth, 2 s after closing`,
      value: mb(r.released - r.before),
      baseline: mb(r.before),
      ratio: ratio(r.released, r.before),
    },
    { figure: `${name}: sent per connection (mean)`, value: fmt(r.sentMb, 'MiB', 1), baseline: `≤ ${connectMb} MiB` },
    {
      figure: `${name}: closed by the server`,
      value: `${r.closed} of ${r.k}`,
      baseline: '',
      goal: r.closed ? `p50 after ${fmt(r.closedAfterMs, 'ms', 0)}` : '',
    },
  ];
}
