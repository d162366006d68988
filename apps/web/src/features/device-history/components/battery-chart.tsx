import { useState } from 'react';
import { Box, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import type { Band, BatteryPoint, HistorySeries } from '../utils/history-series.ts';

const HEIGHT = 180;
const PAD = { top: 8, right: 12, bottom: 22, left: 44 };
const BAND_H = 12;
const STATE_COLORS = ['teal', 'indigo', 'orange', 'grape', 'cyan', 'pink', 'lime'];

/** The color of a state's band: the same state keeps its color across ranges. */
export function stateColor(state: string): string {
  let h = 0;
  for (const c of state) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `var(--mantine-color-${STATE_COLORS[h % STATE_COLORS.length]}-5)`;
}

function tickLabel(t: number, span: number): string {
  const d = new Date(t);
  return span <= 2 * 86_400_000
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
}

/** The line's path, broken where no point came for longer than `gap` (a device that was silent). */
export function linePath(
  points: readonly BatteryPoint[],
  x: (t: number) => number,
  y: (v: number) => number,
  gap: number,
) {
  return points
    .map(
      (p, i) => `${i === 0 || p.t - points[i - 1]!.t > gap ? 'M' : 'L'}${x(p.t).toFixed(1)},${y(p.battery).toFixed(1)}`,
    )
    .join('');
}

interface BatteryChartProps {
  series: HistorySeries;
  /** What the range is called, for the chart's accessible summary ("the last 24 h"). */
  rangeLabel: string;
}

/** Battery over time as a line (the hour's min–max shaded for buckets), charging shaded under it, then online and state bands. */
export function BatteryChart({ series, rangeLabel }: BatteryChartProps) {
  const { ref, width } = useElementSize();
  const [hover, setHover] = useState<BatteryPoint | null>(null);
  const { from, to, battery } = series;
  const span = Math.max(1, to - from);
  const w = Math.max(200, width);
  const plotW = w - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + ((t - from) / span) * plotW;
  const y = (v: number) => PAD.top + (1 - v / 100) * plotH;
  const ticks = Array.from({ length: 5 }, (_, i) => from + (span * i) / 4);
  const first = battery[0];
  const last = battery.at(-1);
  const summary =
    first && last
      ? `Battery over ${rangeLabel}: from ${first.battery} % to ${last.battery} %, lowest ${Math.min(...battery.map((p) => p.min ?? p.battery))} %`
      : `No battery reports in ${rangeLabel}`;
  const range = battery.filter((p) => p.min !== undefined && p.max !== undefined);
  const area =
    range.length > 1
      ? `M${range.map((p) => `${x(p.t).toFixed(1)},${y(p.max!).toFixed(1)}`).join('L')}L${[...range]
          .reverse()
          .map((p) => `${x(p.t).toFixed(1)},${y(p.min!).toFixed(1)}`)
          .join('L')}Z`
      : null;

  const onMove = (event: React.MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const t = from + ((event.clientX - box.left - PAD.left) / plotW) * span;
    let best: BatteryPoint | null = null;
    for (const p of battery) if (!best || Math.abs(p.t - t) < Math.abs(best.t - t)) best = p;
    setHover(best);
  };

  return (
    <Box ref={ref}>
      <svg
        width={w}
        height={HEIGHT}
        role="img"
        aria-label={summary}
        data-testid="battery-chart"
        onMouseMove={battery.length ? onMove : undefined}
        onMouseLeave={() => setHover(null)}
        style={{ display: 'block', overflow: 'visible' }}
      >
        {series.charging.map((b) => (
          <rect
            key={`c${b.from}`}
            data-band="charging"
            x={x(b.from)}
            y={PAD.top}
            width={Math.max(1, x(b.to) - x(b.from))}
            height={plotH}
            fill="var(--mantine-color-yellow-5)"
            opacity={0.18}
          />
        ))}
        {[0, 25, 50, 75, 100].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={w - PAD.right} y1={y(v)} y2={y(v)} stroke="var(--mantine-color-default-border)" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
              {v}%
            </text>
          </g>
        ))}
        {ticks.map((t, i) => (
          <text
            key={t}
            x={x(t)}
            y={HEIGHT - 6}
            fontSize={11}
            textAnchor={i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle'}
            fill="var(--mantine-color-dimmed)"
          >
            {tickLabel(t, span)}
          </text>
        ))}
        {area && <path d={area} fill="var(--mantine-color-blue-5)" opacity={0.15} />}
        <path
          d={linePath(battery, x, y, span / 12)}
          fill="none"
          stroke="var(--mantine-color-blue-6)"
          strokeWidth={2}
          strokeLinejoin="round"
          data-testid="battery-line"
        />
        {hover && (
          <g pointerEvents="none">
            <line
              x1={x(hover.t)}
              x2={x(hover.t)}
              y1={PAD.top}
              y2={PAD.top + plotH}
              stroke="var(--mantine-color-dimmed)"
            />
            <circle cx={x(hover.t)} cy={y(hover.battery)} r={4} fill="var(--mantine-color-blue-6)" />
          </g>
        )}
      </svg>
      <Text size="xs" c="dimmed" h={18} aria-live="polite">
        {hover ? `${new Date(hover.t).toLocaleString()}: ${hover.battery} %` : ''}
      </Text>
      <BandRow
        label="Online"
        bands={series.presence}
        x={x}
        w={w}
        color={(v) => (v === 'online' ? 'var(--mantine-color-green-6)' : 'var(--mantine-color-gray-5)')}
      />
      <BandRow label="State" bands={series.states} x={x} w={w} color={stateColor} />
      <Group gap="md" mt={6}>
        <Legend color="var(--mantine-color-blue-6)" label="Battery" />
        <Legend color="var(--mantine-color-yellow-5)" label="Charging" />
        <Legend color="var(--mantine-color-green-6)" label="Online" />
        <Legend color="var(--mantine-color-gray-5)" label="Offline" />
        {[...new Set(series.states.map((b) => b.value))].map((s) => (
          <Legend key={s} color={stateColor(s)} label={s} />
        ))}
      </Group>
    </Box>
  );
}

function BandRow(props: { label: string; bands: Band[]; x(t: number): number; w: number; color(v: string): string }) {
  const { label, bands, x, w, color } = props;
  return (
    <svg width={w} height={BAND_H + 4} aria-label={`${label} over time`} role="img" style={{ display: 'block' }}>
      <text x={PAD.left - 6} y={BAND_H - 1} textAnchor="end" fontSize={10} fill="var(--mantine-color-dimmed)">
        {label}
      </text>
      {bands.map((b) => (
        <rect
          key={`${b.from}${b.value}`}
          data-band={b.value}
          x={x(b.from)}
          y={1}
          width={Math.max(1, x(b.to) - x(b.from))}
          height={BAND_H}
          rx={2}
          fill={color(b.value)}
        >
          <title>{`${b.value}: ${new Date(b.from).toLocaleString()} – ${new Date(b.to).toLocaleString()}`}</title>
        </rect>
      ))}
    </svg>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box w={10} h={10} style={{ background: color, borderRadius: 2 }} aria-hidden />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}
