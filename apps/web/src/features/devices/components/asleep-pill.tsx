import { Tooltip, VisuallyHidden } from '@mantine/core';
import { IconMoon } from '@tabler/icons-react';
import { ASLEEP_HINT } from '../utils/command-availability.ts';
import classes from './device-tones.module.css';

/**
 * Marks a responsive device that is not connected: it sleeps, and commands sent now are held
 * until it wakes. The tooltip says so on hover and keyboard focus; screen readers hear it inline.
 * `compact` (the table) shows the moon alone, so the Status column keeps its width.
 */
export function AsleepPill({ compact = false }: { compact?: boolean }) {
  return (
    <Tooltip label={ASLEEP_HINT} withArrow>
      <span
        className={`${classes.tone} ${classes.pill}`}
        data-tone="gray"
        data-compact={compact || undefined}
        tabIndex={0}
      >
        <IconMoon size={12} stroke={2} aria-hidden />
        {compact ? <VisuallyHidden>Asleep</VisuallyHidden> : 'Asleep'}
        <VisuallyHidden>: commands wait until it wakes</VisuallyHidden>
      </span>
    </Tooltip>
  );
}
