import { useState, type FormEvent } from 'react';
import { Button, Group, Paper, Stack, TextInput, Textarea } from '@mantine/core';
import { fieldErrorsFromApi, hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useCreateEntity } from '../api/create-entity.ts';
import { ENTITY_FIELDS, validateEntity, type EntityField } from './validate-entity.ts';

interface EntityFormProps {
  onCreated(): void;
  onCancel(): void;
}

/** Entity new (core §2): Name and Description; the success notice is the server's status text. */
export function EntityForm({ onCreated, onCancel }: EntityFormProps) {
  const [values, setValues] = useState({ name: '', description: '' });
  const [errors, setErrors] = useState<FieldErrors<EntityField>>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateEntity();

  const change = (field: EntityField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Errors appear on submit, then follow the typing so a fixed field clears at once.
    if (submitted) setErrors(validateEntity(next));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateEntity(values);
    setErrors(found);
    if (hasFieldErrors(found)) return;
    create.mutate(values, {
      onSuccess: (answer) => {
        notifySuccess(answer.status);
        onCreated();
      },
      // The client has shown the red notice; the form stays usable (core §8).
      onError: (error) => {
        console.error('Entity not created:', error);
        setErrors(fieldErrorsFromApi(error, ENTITY_FIELDS, 'name'));
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={560}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            withAsterisk
            autoFocus
            autoComplete="off"
            description="Letters, digits and underscores"
            value={values.name}
            error={errors.name}
            onChange={(event) => change('name', event.currentTarget.value)}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxRows={6}
            value={values.description}
            error={errors.description}
            onChange={(event) => change('description', event.currentTarget.value)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create entity
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
