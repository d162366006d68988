import { Anchor, Box, Checkbox, Group, Text } from '@mantine/core';
import { memo } from 'react';
import { Link } from 'react-router';
import { DataCard } from '@/components/ui/data-table/data-cards.tsx';
import { formatDateTime, formatRelative } from '@/lib/format/time.ts';
import { commandAvailability } from '@/lib/device/command-availability.ts';
import { isUnresponsive } from '@/lib/device/device-health.ts';
import { BatteryLevel } from './battery-level.tsx';
import { DeviceActions, DeviceStatus, UnresponsivePill } from './device-row-parts.tsx';
import type { DeviceRowContext, DeviceRowProps } from './device-row.tsx';
import classes from './device-tones.module.css';

/**
 * One device of the list on a narrow screen: its row's content as a card (id, status, battery
 * and the same actions first, then when it was last heard from, its groups and firmware), so a
 * phone shows what matters without scrolling sideways.
 */
export const DeviceCard = memo(function DeviceCard(props: DeviceRowProps) {
  const { device, landlord, now, href, selected, onSelect } = props;
  const unresponsive = isUnresponsive(device.updated_at, now);
  const availability = commandAvailability(device, now);
  const context: DeviceRowContext = { availability, unresponsive, busy: props.busy };
  const details = [device.group, landlord ? device.entity : null, device.fw_version].filter(Boolean).join(' · ');
  return (
    <DataCard
      selected={selected}
      className={unresponsive ? classes.unresponsiveCard : undefined}
      data-unresponsive={unresponsive || undefined}
      aria-label={`Device ${device.name}`}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {selected !== undefined && (
          <Checkbox
            mt={2}
            aria-label={`Select device ${device.name}`}
            checked={selected}
            onChange={(event) => onSelect(device.name, event.currentTarget.checked)}
          />
        )}
        <Box flex={1} miw={0}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Box miw={0}>
              <Anchor component={Link} to={href} fw={600} size="sm" ff="monospace" className={classes.rowLink}>
                {device.name}
              </Anchor>
              {device.description && (
                <Text size="xs" className={classes.rowNote} lineClamp={1}>
                  {device.description}
                </Text>
              )}
            </Box>
            <DeviceActions {...props} context={context} />
          </Group>
          <Group gap="sm" mt={6} align="center">
            <Box>
              <DeviceStatus device={device} availability={availability} />
            </Box>
            <BatteryLevel percent={device.battery} charging={device.is_charging} />
          </Group>
          <Group gap="xs" mt={6}>
            <Text size="xs" className={classes.rowNote} title={formatDateTime(device.updated_at)}>
              {formatRelative(device.updated_at, now)}
              {details && ` · ${details}`}
            </Text>
            {unresponsive && <UnresponsivePill />}
          </Group>
        </Box>
      </Group>
    </DataCard>
  );
});
