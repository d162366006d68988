import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { fieldErrorsFromApi, hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { ACCOUNT_SAVED, useUpdateAccount } from '../api/update-account.ts';
import { PASSWORD_FIELDS, validatePasswordChange, type PasswordField } from './validate-account.ts';

interface ChangePasswordModalProps {
  opened: boolean;
  onClose(): void;
  landlord: boolean;
  /** The account whose password changes. */
  name: string;
}

const EMPTY = { password: '', confirmation: '' };

/** Change Password (core §2, §5): Password and Password Confirmation, min 6, confirmed. */
export function ChangePasswordModal({ opened, onClose, landlord, name }: ChangePasswordModalProps) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<PasswordField>>({});
  const [submitted, setSubmitted] = useState(false);
  const update = useUpdateAccount(landlord, name);

  const close = () => {
    // Nothing typed here survives the dialog.
    setValues(EMPTY);
    setErrors({});
    setSubmitted(false);
    onClose();
  };

  const change = (field: PasswordField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validatePasswordChange(next));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validatePasswordChange(values);
    setErrors(found);
    if (hasFieldErrors(found)) return;
    update.mutate(
      { password: values.password },
      {
        onSuccess: () => {
          notifySuccess(ACCOUNT_SAVED);
          close();
        },
        onError: (error) => {
          console.error('Password not changed:', error);
          setErrors(fieldErrorsFromApi(error, PASSWORD_FIELDS));
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Change Password" centered radius="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="Password"
            withAsterisk
            data-autofocus
            autoComplete="new-password"
            value={values.password}
            error={errors.password}
            onChange={(event) => change('password', event.currentTarget.value)}
          />
          <PasswordInput
            label="Password Confirmation"
            withAsterisk
            autoComplete="new-password"
            value={values.confirmation}
            error={errors.confirmation}
            onChange={(event) => change('confirmation', event.currentTarget.value)}
          />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={close} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
