import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { AUDIT_ACTION_NAMES, AUDIT_TARGET_TYPES } from '@fleet/shared/audit-actions';
import { AUDIT_RANGES, isFiltered, NO_AUDIT_FILTERS, rangeStart, type AuditFilters } from '../utils/audit-query.ts';

interface AuditFilterBarProps {
  filters: AuditFilters;
  onChange(filters: AuditFilters): void;
  /** The superadmin's bar adds the entity filter (an entity, the landlord's own entries, or all). */
  entities?: readonly string[];
  /** The clock the time range counts back from. */
  now?: () => number;
}

const ACTIONS = AUDIT_ACTION_NAMES.map((a) => ({ value: a, label: a }));
const TARGETS = AUDIT_TARGET_TYPES.map((t) => ({ value: t, label: t }));
const OUTCOMES = [
  { value: 'success', label: 'Success' },
  { value: 'failure', label: 'Failure' },
];

/**
 * The audit log's filters: time range, action, target (type and name), outcome, actor and free
 * text; the superadmin's also the entity. Text fields apply on Enter or when they lose focus.
 */
export function AuditFilterBar({ filters, onChange, entities, now = Date.now }: AuditFilterBarProps) {
  const set = (patch: Partial<AuditFilters>) => onChange({ ...filters, ...patch });
  const text = (key: 'targetName' | 'actor' | 'search', label: string, placeholder: string) => (
    <TextInput
      key={`${key}:${filters[key]}`}
      label={label}
      placeholder={placeholder}
      defaultValue={filters[key]}
      leftSection={key === 'search' ? <IconSearch size={16} aria-hidden /> : undefined}
      onBlur={(e) => e.currentTarget.value !== filters[key] && set({ [key]: e.currentTarget.value })}
      onKeyDown={(e) => e.key === 'Enter' && set({ [key]: e.currentTarget.value })}
    />
  );

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" mb="md">
      {entities && (
        <Select
          label="Entity"
          placeholder="Every entity"
          data={[
            { value: 'landlord', label: 'Landlord (no entity)' },
            ...entities.map((e) => ({ value: e, label: e })),
          ]}
          value={filters.entity || null}
          searchable
          clearable
          onChange={(value) => set({ entity: value ?? '' })}
        />
      )}
      {text('search', 'Search', 'Actor, target, reason')}
      <Select
        label="Time range"
        data={AUDIT_RANGES.map(({ value, label }) => ({ value, label }))}
        value={filters.range}
        allowDeselect={false}
        onChange={(value) => {
          const range = (value ?? 'any') as AuditFilters['range'];
          set({ range, from: rangeStart(range, now()) });
        }}
      />
      <Select
        label="Action"
        placeholder="Any action"
        data={ACTIONS}
        value={filters.action || null}
        searchable
        clearable
        onChange={(value) => set({ action: (value ?? '') as AuditFilters['action'] })}
      />
      <Select
        label="Outcome"
        placeholder="Any outcome"
        data={OUTCOMES}
        value={filters.outcome || null}
        clearable
        onChange={(value) => set({ outcome: (value ?? '') as AuditFilters['outcome'] })}
      />
      <Select
        label="Target type"
        placeholder="Any target"
        data={TARGETS}
        value={filters.targetType || null}
        clearable
        onChange={(value) => set({ targetType: (value ?? '') as AuditFilters['targetType'] })}
      />
      {text('targetName', 'Target name', 'Exact name')}
      {text('actor', 'Actor', 'Account, device or token')}
      <Group align="flex-end">
        <Button variant="subtle" disabled={!isFiltered(filters)} onClick={() => onChange(NO_AUDIT_FILTERS)}>
          Clear filters
        </Button>
      </Group>
    </SimpleGrid>
  );
}
