import { Select } from '@mantine/core';
import { useAccess } from '@/lib/session/use-access.ts';
import { useGroupChoices } from '../api/get-groups.ts';

interface GroupSelectProps {
  /** Whose groups: the device's entity; the active one when absent. */
  entity?: string;
  /** The landlord's create form has no entity until one is chosen. */
  needsEntity: boolean;
  value: string;
  error?: string;
  readOnly: boolean;
  onChange(group: string): void;
}

/** The optional Groups select of device create and edit (fleet §2): the entity's groups, with their room. */
export function GroupSelect({ entity, needsEntity, value, error, readOnly, onChange }: GroupSelectProps) {
  const waiting = needsEntity && !entity;
  // Without Group_read (the shared access rule) the list is not asked for: the server would refuse it.
  const refused = useAccess('groups') === 'none';
  const groups = useGroupChoices(entity, !waiting && !refused);
  const data = (groups.data ?? []).map((g) => {
    const full = g.capacity !== null && g.devices >= g.capacity && g.name !== value;
    const room = g.capacity === null ? '' : ` (${g.devices}/${g.capacity})`;
    return { value: g.name, label: `${g.name}${room}`, disabled: full };
  });
  if (value && !data.some((d) => d.value === value)) data.unshift({ value, label: value, disabled: false });
  const placeholder = waiting
    ? 'Choose the entity first'
    : refused
      ? 'Groups cannot be read with this account'
      : groups.isPending
        ? 'Loading groups…'
        : groups.isError
          ? 'Groups cannot be read with this account'
          : data.length === 0
            ? 'No groups yet'
            : 'No group';
  return (
    <Select
      label="Groups"
      description="Optional; a full group cannot take the device"
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      searchable
      clearable={!readOnly}
      readOnly={readOnly}
      disabled={((refused || groups.isError) && !value) || (!refused && (waiting || groups.isPending))}
      placeholder={placeholder}
      nothingFoundMessage="No group matches"
      data={data}
      value={value || null}
      error={error}
      clearButtonProps={{ 'aria-label': 'Clear Groups' }}
      onChange={(group) => onChange(group ?? '')}
    />
  );
}
