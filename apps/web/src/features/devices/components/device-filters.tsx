import { Button, Drawer, Group, MultiSelect, Select, Stack, Text } from '@mantine/core';
import {
  BATTERY_FILTERS,
  DATE_RANGES,
  DEVICE_STATES,
  DEVICE_TYPES,
  type BatteryFilter,
  type DateRange,
} from '@fleet/shared/constants';
import { FILTER_VALUES_MAX, SEEN_FILTERS, type SeenFilter } from '@fleet/shared/schemas/device';
import type { DeviceFilters, DeviceType } from '../utils/list-query.ts';

export interface FilterChoices {
  fw_versions: string[];
  states: string[];
  entities: string[];
  groups: string[];
  sites: string[];
  kiosks: string[];
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

const SEEN_LABELS: Record<SeenFilter, string> = {
  online: 'Online now',
  unresponsive: 'Unresponsive (20 minutes)',
  never: 'Never seen',
};

// The values in the URL stay choosable even when no device has them any more.
const withValue = (values: readonly string[], value: string | readonly string[]) =>
  [...new Set([...values, ...(typeof value === 'string' ? (value ? [value] : []) : value)])].sort((a, b) =>
    a.localeCompare(b),
  );

const RANGE_CHOICES = (Object.keys(DATE_RANGES) as DateRange[]).map((r) => ({ value: r, label: DATE_RANGES[r].label }));

/**
 * The filter sidebar (core §2, §9; issue 27): entity (landlord, single), then status, battery,
 * firmware version, groups, sites, kiosks, device type and last seen, each taking several values
 * (any of them), last-seen and creation ranges. Every change applies at once and goes to the server.
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
        <MultiSelect
          label="Status"
          placeholder={placeholder}
          clearable
          maxValues={FILTER_VALUES_MAX}
          data={withValue([...DEVICE_STATES, ...(choices?.states ?? [])], value.status)}
          value={value.status}
          onChange={(status) => onChange({ status })}
        />
        <MultiSelect
          label="Battery"
          placeholder="Any"
          clearable
          data={BATTERY_FILTERS.map((b) => ({ value: b, label: BATTERY_LABELS[b] }))}
          value={value.battery}
          onChange={(battery) => onChange({ battery: battery as BatteryFilter[] })}
        />
        <MultiSelect
          label="Firmware version"
          placeholder={placeholder}
          searchable
          clearable
          maxValues={FILTER_VALUES_MAX}
          nothingFoundMessage="No device reported this version"
          data={withValue(choices?.fw_versions ?? [], value.fw_version)}
          value={value.fw_version}
          onChange={(fw_version) => onChange({ fw_version })}
        />
        <MultiSelect
          label="Groups"
          placeholder={placeholder}
          searchable
          clearable
          maxValues={FILTER_VALUES_MAX}
          nothingFoundMessage="No device is in this group"
          data={withValue(choices?.groups ?? [], value.group)}
          value={value.group}
          onChange={(group) => onChange({ group })}
        />
        <MultiSelect
          label="Sites"
          placeholder={placeholder}
          searchable
          clearable
          maxValues={FILTER_VALUES_MAX}
          nothingFoundMessage="No site has this name"
          data={withValue(choices?.sites ?? [], value.site)}
          value={value.site}
          onChange={(site) => onChange({ site })}
        />
        <MultiSelect
          label="Kiosks"
          placeholder={placeholder}
          searchable
          clearable
          maxValues={FILTER_VALUES_MAX}
          nothingFoundMessage="No kiosk has this name"
          data={withValue(choices?.kiosks ?? [], value.kiosk)}
          value={value.kiosk}
          onChange={(kiosk) => onChange({ kiosk })}
        />
        <MultiSelect
          label="Device type"
          placeholder="Any"
          clearable
          data={[...DEVICE_TYPES]}
          value={value.type}
          onChange={(type) => onChange({ type: type as DeviceType[] })}
        />
        <MultiSelect
          label="Connection"
          placeholder="Any"
          clearable
          data={SEEN_FILTERS.map((v) => ({ value: v, label: SEEN_LABELS[v] }))}
          value={value.seen}
          onChange={(seen) => onChange({ seen: seen as SeenFilter[] })}
        />
        <Select
          label="Last seen in the last"
          placeholder="Any time"
          clearable
          data={RANGE_CHOICES}
          value={value.seen_after || null}
          onChange={(v) => onChange({ seen_after: (v ?? '') as DateRange | '' })}
        />
        <Select
          label="Not seen for"
          placeholder="Any time"
          clearable
          data={RANGE_CHOICES}
          value={value.seen_before || null}
          onChange={(v) => onChange({ seen_before: (v ?? '') as DateRange | '' })}
        />
        <Select
          label="Created in the last"
          placeholder="Any time"
          clearable
          data={RANGE_CHOICES}
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
