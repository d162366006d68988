import { Tooltip, VisuallyHidden } from '@mantine/core';
import { IconMoon, IconPlugConnectedX } from '@tabler/icons-react';
import { ASLEEP_HINT, NOT_CONNECTED_HINT } from '@/lib/device/command-availability.ts';
import classes from './device-tones.module.css';

/**
 * Marks a responsive device that is not connected: it sleeps, and commands sent now are held
 * until it wakes. The tooltip says so on hover and keyboard focus; screen readers hear it inline.
 * `compact` (the table) shows the icon alone, so the Status column keeps its width. A device that
 * has never connected says so instead.
 */
export function AsleepPill({
  compact = false,
  neverConnected = false,
}: {
  compact?: boolean;
  neverConnected?: boolean;
}) {
  const label = neverConnected ? 'Not connected yet' : 'Asleep';
  const Icon = neverConnected ? IconPlugConnectedX : IconMoon;
  return (
    <Tooltip label={neverConnected ? NOT_CONNECTED_HINT : ASLEEP_HINT} withArrow>
      <span
        className={`${classes.tone} ${classes.pill}`}
        data-tone="gray"
        data-compact={compact || undefined}
        tabIndex={0}
      >
        <Icon size={12} stroke={2} aria-hidden />
        {compact ? <VisuallyHidden>{label}</VisuallyHidden> : label}
        <VisuallyHidden>
          {neverConnected ? ': commands wait until it first connects' : ': commands wait until it wakes'}
        </VisuallyHidden>
      </span>
    </Tooltip>
  );
}
