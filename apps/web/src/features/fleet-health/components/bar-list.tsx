import { Link } from 'react-router';
import { Box, Text, UnstyledButton } from '@mantine/core';
import classes from './fleet-health.module.css';

export interface Bar {
  key: string;
  label: string;
  count: number;
  /** A Mantine colour name: the bar's fill. */
  color: string;
  /** The filtered device list this bar opens; none: a figure with no list behind it. */
  to?: string;
  /** The link's accessible name ("Open the 3 devices with Low battery"). */
  name?: string;
}

/**
 * Horizontal bars, each as long as its share of the largest; a bar with `to` is a link (keyboard
 * reachable, named by what it opens and its count), one without is plain text.
 */
export function BarList({ bars, testId }: { bars: readonly Bar[]; testId?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <Box component="ul" className={classes.bars} data-testid={testId}>
      {bars.map((bar) => {
        const inner = (
          <>
            <Text size="sm" className={classes.barLabel}>
              {bar.label}
            </Text>
            <span className={classes.barTrack} aria-hidden>
              <span
                className={classes.barFill}
                style={{
                  width: `${(bar.count / max) * 100}%`,
                  background: `var(--mantine-color-${bar.color}-filled)`,
                }}
              />
            </span>
            <Text size="sm" fw={600} className={classes.barCount}>
              {bar.count.toLocaleString()}
            </Text>
          </>
        );
        return (
          <li key={bar.key}>
            {bar.to ? (
              <UnstyledButton
                component={Link}
                to={bar.to}
                aria-label={bar.name}
                className={classes.bar}
                data-bar={bar.key}
              >
                {inner}
              </UnstyledButton>
            ) : (
              <div className={classes.bar} data-bar={bar.key}>
                {inner}
              </div>
            )}
          </li>
        );
      })}
    </Box>
  );
}
