import { Button, Drawer, Group, Select, Stack, Text } from '@mantine/core';
import {
  BATTERY_FILTERS,
  DATE_RANGES,
  DEVICE_STATES,
  type BatteryFilter,
  type DateRange,
} from '@fleet/shared/constants';
import type { DeviceFilters } from '../utils/list-query.ts';

export interface FilterChoices {
  fw_versions: string[];
  states: string[];
  entities: string[];
  groups: string[];
}

interface DeviceFilterDrawerProps {
  opened: boolean;
  onClose(): void;
  landlord: boolean;
  value: DeviceFilters;
  choices: FilterChoices | undefined;
  onChange(patch: Partial<DeviceFilters>): void;
  onClear(): void;
  /** Devices matching now, or undefined while unknown. */
  total: number | undefined;
}

const BATTERY_LABELS: Record<BatteryFilter, string> = {
  High: 'High (above 75%)',
  Medium: 'Medium (51–75%)',
  Low: 'Low (50% or less)',
  Charging: 'Charging',
};

// The value in the URL stays choosable even when no device has it any more.
const withValue = (values: readonly string[], value: string) =>
  [...new Set([...values, ...(value ? [value] : [])])].sort((a, b) => a.localeCompare(b));

/**
 * The filter sidebar (core §2, §9): entity (landlord), status, battery, firmware version and
 * creation date range. Every change applies at once and is sent to the server.
 */
export function DeviceFilterDrawer(props: DeviceFilterDrawerProps) {
  const { opened, onClose, landlord, value, choices, onChange, onClear, total } = props;
  const loading = choices === undefined;
  const placeholder = loading ? 'Loading…' : 'Any';
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={340}
      title="Filters"
      closeButtonProps={{ 'aria-label': 'Close filters' }}
    >
      <Stack gap="md">
        {landlord && (
          <Select
            label="Entity"
            placeholder={placeholder}
            searchable
            clearable
            nothingFoundMessage="No entity has devices"
            data={withValue(choices?.entities ?? [], value.entity)}
            value={value.entity || null}
            onChange={(entity) => onChange({ entity: entity ?? '' })}
          />
        )}
        <Select
          label="Status"
          placeholder={placeholder}
          clearable
          data={withValue([...DEVICE_STATES, ...(choices?.states ?? [])], value.status)}
          value={value.status || null}
          onChange={(status) => onChange({ status: status ?? '' })}
        />
        <Select
          label="Battery"
          placeholder="Any"
          clearable
          data={BATTERY_FILTERS.map((b) => ({ value: b, label: BATTERY_LABELS[b] }))}
          value={value.battery || null}
          onChange={(battery) => onChange({ battery: (battery ?? '') as BatteryFilter | '' })}
        />
        <Select
          label="Firmware version"
          placeholder={placeholder}
          searchable
          clearable
          nothingFoundMessage="No device reported this version"
          data={withValue(choices?.fw_versions ?? [], value.fw_version)}
          value={value.fw_version || null}
          onChange={(fw_version) => onChange({ fw_version: fw_version ?? '' })}
        />
        <Select
          label="Groups"
          placeholder={placeholder}
          searchable
          clearable
          nothingFoundMessage="No device is in this group"
          data={withValue(choices?.groups ?? [], value.group)}
          value={value.group || null}
          onChange={(group) => onChange({ group: group ?? '' })}
        />
        <Select
          label="Created in the last"
          placeholder="Any time"
          clearable
          data={(Object.keys(DATE_RANGES) as DateRange[]).map((r) => ({ value: r, label: DATE_RANGES[r].label }))}
          value={value.created || null}
          onChange={(created) => onChange({ created: (created ?? '') as DateRange | '' })}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {total === undefined ? '\u00a0' : `${total} device${total === 1 ? '' : 's'} match`}
        </Text>
        <Group justify="space-between">
          <Button variant="default" onClick={onClear}>
            Clear filters
          </Button>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Drawer>
  );
}
