import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { email as emailRule } from '@fleet/shared/validation';
import type { Account } from '@fleet/shared/schemas/account';
import { fieldErrorsFromApi } from '@/lib/forms/field-errors.ts';
import { firstIssue } from '@/lib/forms/first-issue.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { ACCOUNT_SAVED, useUpdateAccount } from '../api/update-account.ts';
import { buildAccountUpdate } from './account-payload.ts';
import { ChangePasswordModal } from './change-password-modal.tsx';
import { subtypeText } from './subtypes.ts';

interface SettingsFormProps {
  account: Account;
  /** The signed-in account is a superadmin: its calls use the plain path. */
  landlord: boolean;
}

/** Account settings (core §2): read-only Username and Type, editable E-mail, Change Password. */
export function SettingsForm({ account, landlord }: SettingsFormProps) {
  const [email, setEmail] = useState(account.email);
  const [error, setError] = useState<string | undefined>();
  const [submitted, setSubmitted] = useState(false);
  const [passwordOpened, password] = useDisclosure(false);
  const update = useUpdateAccount(landlord, account.name);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = firstIssue(emailRule(), email);
    setError(found);
    if (found) return;
    update.mutate(buildAccountUpdate(account, { name: account.name, email }), {
      onSuccess: () => notifySuccess(ACCOUNT_SAVED),
      onError: (cause) => {
        console.error('Settings not saved:', cause);
        setError(fieldErrorsFromApi(cause, ['email'] as const).email);
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <TextInput label="Username" readOnly variant="filled" value={account.name} />
            <TextInput label="Type" readOnly variant="filled" value={subtypeText(account.subtype)} />
            <TextInput
              label="E-mail"
              type="email"
              withAsterisk
              autoComplete="email"
              value={email}
              error={error}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                if (submitted) setError(firstIssue(emailRule(), event.currentTarget.value));
              }}
            />
          </SimpleGrid>
          <Group justify="space-between" mt="sm">
            <Button variant="light" leftSection={<IconKey size={16} aria-hidden />} onClick={password.open}>
              Change Password
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
      <ChangePasswordModal opened={passwordOpened} onClose={password.close} landlord={landlord} name={account.name} />
    </Paper>
  );
}
