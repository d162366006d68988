// Statistics and the table every bench prints: figure, value, baseline, ratio, goal.

/** Nearest-rank percentile of an array of numbers (p in 0..100). */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export const median = (values) => percentile(values, 50);
export const min = (values) => Math.min(...values);

/** A number with a unit and fixed digits, or '—' for a missing or infinite value. */
export function fmt(value, unit = '', digits = 1) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  const n = value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return unit ? `${n} ${unit}` : n;
}

/** value / baseline as "1.23×" (or "12.3 %"), '—' when either is missing. */
export function ratio(value, baseline, asPercent = false) {
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return '—';
  return asPercent ? `${((value / baseline) * 100).toFixed(1)} %` : `${(value / baseline).toFixed(2)}×`;
}

/** Prints rows of {figure, value, baseline, ratio, goal} as an aligned plain-text table. */
export function printTable(title, rows) {
  const cols = ['figure', 'value', 'baseline', 'ratio', 'goal'];
  const cells = rows.map((r) => cols.map((c) => String(r[c] ?? '—')));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  const line = (vals) => vals.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  console.log(`\n${title}\n${line(cols)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of cells) console.log(line(row));
}
