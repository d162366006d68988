import { statusColor } from '@fleet/shared/constants';
import { Text } from '@mantine/core';
import classes from './device-tones.module.css';

/** A device's state.current as a coloured pill (core §4); a dash when it never reported one. */
export function StatusBadge({ state }: { state: string | null }) {
  if (!state)
    return (
      <Text span c="dimmed" size="sm" aria-label="No status reported">
        —
      </Text>
    );
  return (
    <span className={`${classes.tone} ${classes.pill}`} data-tone={statusColor(state)}>
      {state}
    </span>
  );
}
