import { Link } from 'react-router';
import { Box, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import classes from './fleet-health.module.css';

export interface Bar {
  key: string;
  label: string;
  count: number;
  /** A Mantine colour name: the bar's fill. */
  color: string;
  /** The filtered device list this bar opens; none: a figure with no list behind it. */
  to?: string;
  /**
   * What a screen reader hears around the visible label and count, so the link's name says what
   * it opens and how many: "{before} Low{after} 4 devices".
   */
  before?: string;
  after?: string;
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
              {bar.to && <VisuallyHidden>{`${bar.before ?? 'Open the devices'} `}</VisuallyHidden>}
              {bar.label}
              {bar.to && <VisuallyHidden>{bar.after ?? ':'}</VisuallyHidden>}
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
              {bar.to && <VisuallyHidden>{bar.count === 1 ? ' device' : ' devices'}</VisuallyHidden>}
            </Text>
          </>
        );
        return (
          <li key={bar.key}>
            {bar.to ? (
              <UnstyledButton component={Link} to={bar.to} className={classes.bar} data-bar={bar.key}>
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
