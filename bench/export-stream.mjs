// A whole CSV export read as a client would, for the benches that time one (history, fleet-million).
import { rssMb } from './flood-probes.mjs';
import { fmt } from './lib.mjs';

/**
 * Streams `url` (an export answering CSV with a header line) to its end while sampling the
 * server's RSS (`pid`) every 20 ms; answers rows, seconds, bytes and the RSS idle and at its peak.
 */
export async function streamExport(url, headers, pid) {
  const idle = rssMb(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  let lines = 0;
  let bytes = 0;
  try {
    for await (const chunk of res.body) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
  } catch (error) {
    throw new Error(`the export broke off after ${lines} lines, ${Math.round(performance.now() - t0)} ms`, {
      cause: error,
    });
  } finally {
    clearInterval(sampler);
  }
  return { rows: lines - 1, seconds: (performance.now() - t0) / 1000, bytes, idle, peak };
}

/** The two figures of an export against issue 26's and 27's goals: rows/s, and the server's RSS peak. */
export function exportFigures(exp, what) {
  return [
    {
      figure: `export of ${exp.rows.toLocaleString('en-US')} ${what}`,
      value: `${Math.round(exp.rows / exp.seconds).toLocaleString('en-US')} rows/s`,
      baseline: '',
      ratio: '',
      goal: '≥ 100,000 rows/s',
    },
    {
      figure: 'server RSS during the export (peak)',
      value: fmt(exp.peak, 'MB'),
      baseline: `${fmt(exp.idle, 'MB')} idle`,
      ratio: `+${fmt(exp.peak - exp.idle, 'MB')}`,
      goal: '≤ +50 MB',
    },
  ];
}
