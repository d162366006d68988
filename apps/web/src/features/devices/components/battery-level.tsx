import { Group, Text, Tooltip } from '@mantine/core';
import { IconBattery1, IconBattery2, IconBattery4, IconBolt } from '@tabler/icons-react';
import { batteryLook } from '@/lib/device/device-health.ts';
import classes from './device-tones.module.css';

const ICONS = { High: IconBattery4, Medium: IconBattery2, Low: IconBattery1 } as const;

/** Battery percent in its band colour (core §9) with a charging mark; a dash before the first report. */
export function BatteryLevel({ percent, charging }: { percent: number | null; charging: boolean | null }) {
  const look = batteryLook(percent);
  if (look === null)
    return (
      <Text span c="dimmed" size="sm" aria-label="No battery reading">
        —
      </Text>
    );
  const Icon = ICONS[look.band];
  return (
    <Group gap={4} wrap="nowrap" className={classes.tone} data-tone={look.tone}>
      <Icon size={18} stroke={1.7} color="var(--tone-fg)" aria-hidden />
      <Text span size="sm" className={classes.text} title={`${look.band} battery`}>
        {percent}%
      </Text>
      {charging && (
        <Tooltip label="Charging" withArrow>
          <IconBolt
            size={16}
            stroke={1.8}
            color="var(--mantine-color-yellow-7)"
            fill="var(--mantine-color-yellow-4)"
            role="img"
            aria-label="Charging"
          />
        </Tooltip>
      )}
    </Group>
  );
}
