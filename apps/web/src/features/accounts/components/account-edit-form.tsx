import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import type { Subtype } from '@fleet/shared/constants';
import type { Account } from '@fleet/shared/schemas/account';
import { fieldErrorsFromApi, hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { ACCOUNT_SAVED, useUpdateAccount } from '../api/update-account.ts';
import { buildAccountUpdate } from './account-payload.ts';
import { ChangePasswordModal } from './change-password-modal.tsx';
import { subtypeText, type SubtypeOption } from './subtypes.ts';
import { EDIT_FIELDS, validateAccountEdit, type EditField } from './validate-account.ts';

interface AccountEditFormProps {
  account: Account;
  landlord: boolean;
  /** Type choices, or null to show the type read-only (a superadmin stays one). */
  typeOptions: SubtypeOption[] | null;
  /** The landlord's screen shows the account's entity, read-only. */
  showEntity: boolean;
  /** The viewer's own account: its username is the session's identity and stays as it is. */
  ownAccount: boolean;
  /** Another's account the viewer may not manage (the shared access rule): shown, not editable. */
  readOnly?: boolean;
  onSaved(): void;
  onCancel(): void;
}

/** Account edit (core §2): Username, E-mail, Type, a Change Password dialog; the name is sent only when changed. */
export function AccountEditForm(props: AccountEditFormProps) {
  const { account, landlord, typeOptions, showEntity, ownAccount, readOnly = false, onSaved, onCancel } = props;
  // The username is fixed for one's own account, everything for an account one may not manage.
  const nameFixed = ownAccount || readOnly;
  const [values, setValues] = useState({ name: account.name, email: account.email, subtype: account.subtype });
  const [errors, setErrors] = useState<FieldErrors<EditField>>({});
  const [submitted, setSubmitted] = useState(false);
  const [passwordOpened, password] = useDisclosure(false);
  const update = useUpdateAccount(landlord, account.name);

  const change = (next: typeof values) => {
    setValues(next);
    if (submitted) setErrors(validateAccountEdit(next));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateAccountEdit(values);
    setErrors(found);
    if (hasFieldErrors(found)) return;
    const set = buildAccountUpdate(account, { ...values, subtype: typeOptions ? values.subtype : undefined });
    update.mutate(set, {
      onSuccess: () => {
        notifySuccess(ACCOUNT_SAVED);
        onSaved();
      },
      // The client showed the red notice; the form is usable again and the error logged (core §8).
      onError: (error) => {
        console.error('Account not saved:', error);
        setErrors(fieldErrorsFromApi(error, EDIT_FIELDS, 'name'));
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <TextInput
              label="Username"
              withAsterisk={!nameFixed}
              readOnly={nameFixed}
              variant={nameFixed ? 'filled' : 'default'}
              description={ownAccount ? 'Your own username and type cannot be changed here.' : undefined}
              autoComplete="off"
              value={values.name}
              error={errors.name}
              onChange={(event) => change({ ...values, name: event.currentTarget.value })}
            />
            <TextInput
              label="E-mail"
              type="email"
              withAsterisk={!readOnly}
              readOnly={readOnly}
              variant={readOnly ? 'filled' : 'default'}
              autoComplete="off"
              value={values.email}
              error={errors.email}
              onChange={(event) => change({ ...values, email: event.currentTarget.value })}
            />
            {typeOptions && !readOnly ? (
              <Select
                label="Account Type"
                withAsterisk
                allowDeselect={false}
                data={typeOptions}
                value={values.subtype}
                onChange={(value) => value !== null && change({ ...values, subtype: value as Subtype })}
              />
            ) : (
              <TextInput label="Account Type" readOnly variant="filled" value={subtypeText(account.subtype)} />
            )}
            {showEntity && (
              <TextInput label="Entity" readOnly variant="filled" value={account.entity ?? ''} placeholder="None" />
            )}
          </SimpleGrid>
          {readOnly ? (
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={onCancel}>
                Back
              </Button>
            </Group>
          ) : (
            <Group justify="space-between" mt="sm">
              <Button variant="light" leftSection={<IconKey size={16} aria-hidden />} onClick={password.open}>
                Change Password
              </Button>
              <Group gap="sm">
                <Button variant="default" onClick={onCancel} disabled={update.isPending}>
                  Cancel
                </Button>
                <Button type="submit" loading={update.isPending}>
                  Save
                </Button>
              </Group>
            </Group>
          )}
        </Stack>
      </form>
      <ChangePasswordModal opened={passwordOpened} onClose={password.close} landlord={landlord} name={account.name} />
    </Paper>
  );
}
