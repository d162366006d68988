import { useState } from 'react';
import {
  Button,
  Checkbox,
  FileInput,
  Group,
  JsonInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFileCode, IconLayoutDashboard } from '@tabler/icons-react';
import type { DataviewWithContent } from '@fleet/shared/schemas/dataview';
import { FILE_LIMITS } from '@fleet/shared/constants';
import { MESSAGES } from '@fleet/shared/validation';
import { hasFieldErrors, type FieldErrors } from '@/lib/forms/field-errors.ts';
import { notifyFailure } from '@/lib/notify-failure.ts';
import { readContentFile } from '../utils/content-file.ts';
import {
  dataviewErrorsFromApi,
  initialValues,
  toDocument,
  validateDataview,
  type DataviewField,
  type DataviewFormValues,
} from '../utils/dataview-form.ts';

interface DataviewFormProps {
  /** The dataview being edited; absent on create. */
  dataview?: DataviewWithContent;
  /** Admin and developer accounts of the entity (fleet §6). */
  accounts: string[];
  /** The owner a new dataview starts with (the signed-in account when it may own one). */
  defaultOwner?: string;
  saving: boolean;
  onSubmit(document: ReturnType<typeof toDocument>): Promise<unknown>;
  onCancel(): void;
  onDownload?(): void;
  onDesign?(): void;
  /** Shown to an account that may read but not change dataviews (the shared access rule): no Save. */
  readOnly?: boolean;
}

/** Create and edit of fleet §2: fields, Owner select, Authorized Accounts checklist, JSON content file. */
export function DataviewForm({ dataview, accounts, defaultOwner, saving, readOnly, ...props }: DataviewFormProps) {
  const [values, setValues] = useState<DataviewFormValues>(() => initialValues(dataview, defaultOwner));
  const [errors, setErrors] = useState<FieldErrors<DataviewField>>({});
  const [file, setFile] = useState<File | null>(null);
  const set = <K extends keyof DataviewFormValues>(key: K, value: DataviewFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const ownerChoices = dataview?.owner && !accounts.includes(dataview.owner) ? [...accounts, dataview.owner] : accounts;

  const onFile = async (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) return;
    const read = await readContentFile(chosen);
    if ('error' in read) setErrors((e) => ({ ...e, content: read.error }));
    else {
      set('contentText', read.text);
      setErrors((e) => ({ ...e, content: undefined }));
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = validateDataview(values);
    setErrors(found);
    if (hasFieldErrors(found)) return;
    try {
      await props.onSubmit(toDocument(values));
    } catch (err) {
      const fields = dataviewErrorsFromApi(err);
      setErrors(fields);
      // A refusal with no field to show it at (403, 409, a network error) would otherwise say nothing.
      if (!hasFieldErrors(fields)) notifyFailure(err);
      console.error('Dataview not saved:', err);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" component="form" onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <fieldset disabled={readOnly} style={{ all: 'unset', display: 'contents' }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Name"
              required
              value={values.name}
              error={errors.name}
              onChange={(e) => set('name', e.currentTarget.value)}
            />
            <TextInput
              label="Version"
              required
              value={values.version}
              error={errors.version}
              onChange={(e) => set('version', e.currentTarget.value)}
            />
          </SimpleGrid>
          <TextInput
            label="Description"
            value={values.description}
            error={errors.description}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <Select
            label="Owner"
            required
            placeholder={dataview && !dataview.owner ? 'No owner: choose one' : 'Choose the owner'}
            data={ownerChoices}
            value={values.owner || null}
            error={errors.owner}
            searchable
            nothingFoundMessage="No admin or developer account"
            onChange={(owner) => {
              set('owner', owner ?? '');
              if (owner && !values.authorized.includes(owner)) set('authorized', [...values.authorized, owner]);
            }}
          />
          <Checkbox.Group
            label="Authorized Accounts"
            description="The owner is always authorised."
            value={[...new Set([...values.authorized, ...(values.owner ? [values.owner] : [])])]}
            error={errors.authorized_accounts}
            onChange={(next) => set('authorized', next)}
          >
            {accounts.length === 0 ? (
              <Text size="sm" c="dimmed" mt="xs">
                This entity has no admin or developer accounts yet.
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs" spacing="xs">
                {accounts.map((name) => (
                  <Checkbox key={name} value={name} label={name} disabled={name === values.owner} />
                ))}
              </SimpleGrid>
            )}
          </Checkbox.Group>
          <FileInput
            label="JSON content file"
            description={`A .json file of at most ${FILE_LIMITS.dataview} Bytes; it replaces the content below.`}
            accept=".json,application/json"
            clearable
            value={file}
            leftSection={<IconFileCode size={16} aria-hidden />}
            onChange={(f) => void onFile(f)}
          />
          <JsonInput
            label="Content"
            description="Leave empty for the default content (the name and a display name from the description)."
            value={values.contentText}
            error={errors.content}
            onChange={(text) => set('contentText', text)}
            formatOnBlur
            // Shown by JsonInput itself after a blur with invalid JSON (it then ignores `error`).
            validationError={MESSAGES.json}
            autosize
            minRows={4}
            maxRows={14}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
          />
        </fieldset>
        <Group justify="space-between">
          <Group gap="sm">
            {props.onDownload && (
              <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={props.onDownload}>
                Download
              </Button>
            )}
            {props.onDesign && (
              <Button
                variant="default"
                leftSection={<IconLayoutDashboard size={16} aria-hidden />}
                onClick={props.onDesign}
              >
                Open Dataview Designer
              </Button>
            )}
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={props.onCancel}>
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
    </Paper>
  );
}
