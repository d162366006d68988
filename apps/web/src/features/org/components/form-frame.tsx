import type { FormEvent, ReactNode } from 'react';
import { Button, Group, Paper, Stack } from '@mantine/core';

interface FormFrameProps {
  children: ReactNode;
  saving: boolean;
  readOnly?: boolean;
  onSubmit(): void;
  onCancel(): void;
  /** Extra buttons beside Save, e.g. the File and Firmware upload buttons (issue 11). */
  actions?: ReactNode;
}

/** The card, Cancel and Save every organisation form shares. */
export function FormFrame({ children, saving, readOnly, onSubmit, onCancel, actions }: FormFrameProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          {children}
          <Group justify="space-between">
            <Group gap="sm" data-slot="actions">
              {actions}
            </Group>
            <Group gap="sm">
              <Button variant="default" onClick={onCancel} disabled={saving}>
                {readOnly ? 'Back' : 'Cancel'}
              </Button>
              {!readOnly && (
                <Button type="submit" loading={saving}>
                  Save
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
