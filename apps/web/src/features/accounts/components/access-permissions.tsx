import { Checkbox, Fieldset, SimpleGrid } from '@mantine/core';
import type { AccessValue } from '@fleet/shared/constants';
import { INDIVIDUAL_ACCESS } from './access-toggle.ts';

interface AccessPermissionsProps {
  value: readonly AccessValue[];
  onToggle(value: AccessValue, checked: boolean): void;
  disabled?: boolean;
}

/** The landlord form's Access Permissions (core §2): All Access plus the six individual rights. */
export function AccessPermissions({ value, onToggle, disabled }: AccessPermissionsProps) {
  return (
    <Fieldset legend="Access Permissions" radius="md" disabled={disabled}>
      <Checkbox
        label="All Access"
        description="Every right, now and later"
        checked={value.includes('all')}
        onChange={(event) => onToggle('all', event.currentTarget.checked)}
        mb="md"
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        {INDIVIDUAL_ACCESS.map((access) => (
          <Checkbox
            key={access}
            label={access}
            checked={value.includes(access)}
            onChange={(event) => onToggle(access, event.currentTarget.checked)}
          />
        ))}
      </SimpleGrid>
    </Fieldset>
  );
}
