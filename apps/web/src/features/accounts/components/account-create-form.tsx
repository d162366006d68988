import { useEffect } from 'react';
import { Button, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { Subtype } from '@fleet/shared/constants';
import { useAccountCreateForm } from '../hooks/use-account-create-form.ts';
import { AccessPermissions } from './access-permissions.tsx';
import { EntitySelect, type EntityOption } from './entity-select.tsx';
import type { SubtypeOption } from './subtypes.ts';

interface AccountCreateFormProps {
  /** The landlord's form: plain path, entity selector and access section. */
  landlord: boolean;
  typeOptions: SubtypeOption[];
  defaultSubtype: Subtype;
  /** The landlord form's entity choices (undefined while loading). */
  entities?: readonly EntityOption[] | undefined;
  entitiesLoading?: boolean;
  onCreated(): void;
  onCancel(): void;
}

/** Account new (core §2): the entity-level form, or the landlord's with entity and access. */
export function AccountCreateForm(props: AccountCreateFormProps) {
  const { landlord, typeOptions, defaultSubtype, entities, entitiesLoading = false, onCreated, onCancel } = props;
  const form = useAccountCreateForm({ landlord, defaultSubtype, onCreated });
  const { values, errors, pending } = form;
  const superadmin = values.subtype === 'sadmin';
  const firstEntity = entities?.[0]?.name;
  const { defaultEntity } = form;
  useEffect(() => {
    if (firstEntity !== undefined) defaultEntity(firstEntity);
  }, [firstEntity, defaultEntity]);

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form onSubmit={form.onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <TextInput
              label="Username"
              withAsterisk
              autoFocus
              autoComplete="off"
              value={values.name}
              error={errors.name}
              onChange={(event) => form.setText('name', event.currentTarget.value)}
            />
            <TextInput
              label="E-mail"
              type="email"
              withAsterisk
              autoComplete="off"
              value={values.email}
              error={errors.email}
              onChange={(event) => form.setText('email', event.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              withAsterisk
              autoComplete="new-password"
              value={values.password}
              error={errors.password}
              onChange={(event) => form.setText('password', event.currentTarget.value)}
            />
            <PasswordInput
              label="Password Confirmation"
              withAsterisk
              autoComplete="new-password"
              value={values.confirmation}
              error={errors.confirmation}
              onChange={(event) => form.setText('confirmation', event.currentTarget.value)}
            />
            <Select
              label="Account Type"
              withAsterisk
              allowDeselect={false}
              data={typeOptions}
              value={values.subtype}
              onChange={(value) => value !== null && form.setSubtype(value as Subtype)}
            />
            {landlord && !superadmin && (
              <EntitySelect
                entities={entities}
                loading={entitiesLoading}
                value={values.entity}
                error={errors.entity}
                onChange={(name) => form.setText('entity', name)}
              />
            )}
          </SimpleGrid>
          {landlord && !superadmin && <AccessPermissions value={values.access} onToggle={form.toggleAccess} />}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Create account
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
