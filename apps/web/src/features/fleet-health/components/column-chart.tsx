import { Box, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';

export interface ColumnSeries {
  key: string;
  label: string;
  color: string;
}

export interface ColumnPoint {
  /** The bucket's start, ms. */
  t: number;
  values: Record<string, number>;
}

const HEIGHT = 160;
const PAD = { top: 8, right: 8, bottom: 22, left: 36 };

function tickLabel(t: number, bucketMs: number): string {
  const d = new Date(t);
  return bucketMs < 86_400_000
    ? d.toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
}

interface ColumnChartProps {
  series: readonly ColumnSeries[];
  points: readonly ColumnPoint[];
  /** The window from its start to now, ms, and the width of one bucket. */
  from: number;
  to: number;
  bucketMs: number;
  /** The chart in a sentence, for assistive technology. */
  summary: string;
  testId?: string;
}

/** Buckets over a window, each with a column per series side by side; an own SVG like the device History chart. */
export function ColumnChart({ series, points, from, to, bucketMs, summary, testId }: ColumnChartProps) {
  const { ref, width } = useElementSize();
  const w = Math.max(240, width);
  const plotW = w - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const span = Math.max(bucketMs, to - from);
  const max = Math.max(1, ...points.flatMap((p) => series.map((s) => p.values[s.key] ?? 0)));
  const x = (t: number) => PAD.left + ((t - from) / span) * plotW;
  const y = (v: number) => PAD.top + (1 - v / max) * plotH;
  const slot = (bucketMs / span) * plotW;
  const colW = Math.max(1, (slot * 0.8) / series.length);
  const ticks = [0, Math.round(max / 2), max].filter((v, i, all) => all.indexOf(v) === i);

  return (
    <Box ref={ref}>
      <svg width={w} height={HEIGHT} role="img" aria-label={summary} data-testid={testId} style={{ display: 'block' }}>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={w - PAD.right} y1={y(v)} y2={y(v)} stroke="var(--mantine-color-default-border)" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
              {v}
            </text>
          </g>
        ))}
        {points.map((p) =>
          series.map((s, i) => {
            const v = p.values[s.key] ?? 0;
            return (
              <rect
                key={`${p.t}-${s.key}`}
                x={x(p.t) + slot * 0.1 + i * colW}
                y={y(v)}
                width={colW}
                height={Math.max(0, y(0) - y(v))}
                fill={`var(--mantine-color-${s.color}-filled)`}
              >
                <title>{`${tickLabel(p.t, bucketMs)}: ${v} ${s.label.toLowerCase()}`}</title>
              </rect>
            );
          }),
        )}
        {[from, to].map((t, i) => (
          <text
            key={t}
            x={i === 0 ? PAD.left : w - PAD.right}
            y={HEIGHT - 6}
            fontSize={11}
            textAnchor={i === 0 ? 'start' : 'end'}
            fill="var(--mantine-color-dimmed)"
          >
            {i === 0 ? tickLabel(t, bucketMs) : 'now'}
          </text>
        ))}
      </svg>
      <Group gap="md" mt={4} aria-hidden>
        {series.map((s) => (
          <Group key={s.key} gap={6}>
            <Box w={10} h={10} style={{ borderRadius: 2, background: `var(--mantine-color-${s.color}-filled)` }} />
            <Text size="xs" c="dimmed">
              {s.label}
            </Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}
