import { Checkbox, FileInput, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { IconCertificate } from '@tabler/icons-react';
import { DEFAULT_NEW_DEVICE_TYPE } from '@fleet/shared/constants';
import type { DeviceForm } from '../hooks/use-device-form.ts';
import { CERTIFICATE_ACCEPT } from '../utils/certificate-file.ts';
import { GroupSelect } from './group-select.tsx';
import type { EntityChoice } from '@/lib/forms/entity-choice.ts';

interface DeviceFormFieldsProps {
  form: DeviceForm;
  /** The landlord's create form chooses the entity. */
  entities?: { choices: readonly EntityChoice[] | undefined; loading: boolean };
  /** The device's manufacturing type; new devices are CC1 (fleet §2). */
  manufacturingType?: string;
  /** Edit: whether a certificate is on file. */
  hasCertificate?: boolean;
  /** Read-only viewers see the values without inputs to change them. */
  readOnly?: boolean;
  autoFocus?: boolean;
  /** Edit: the device's entity, whose groups the select offers (the landlord edits any entity's). */
  entity?: string;
}

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };
// Hints go under the inputs, so inputs side by side stay aligned whatever their hint's length.
const order: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

/**
 * The device fields (fleet §2, §3): Device ID, Description, Groups, Lora DevEUI, LTE IMSI,
 * Version ID, Manufacturing Type (read-only) and the X509 certificate file.
 */
export function DeviceFormFields(props: DeviceFormFieldsProps) {
  const {
    form,
    entities,
    manufacturingType = DEFAULT_NEW_DEVICE_TYPE,
    hasCertificate = false,
    readOnly = false,
  } = props;
  const { values, errors } = form;
  const text = (field: Parameters<DeviceForm['setText']>[0]) => ({
    value: values[field],
    error: errors[field],
    inputWrapperOrder: order,
    readOnly,
    autoComplete: 'off',
    onChange: (event: { currentTarget: { value: string } }) => form.setText(field, event.currentTarget.value),
  });
  const entityChoices = entities?.choices;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        <TextInput
          label="Device ID"
          description="12 lower-case hex digits, e.g. 240ac40a2e48"
          withAsterisk={!readOnly}
          autoFocus={props.autoFocus}
          styles={mono}
          maxLength={64}
          {...text('name')}
        />
        {entities && (
          <Select
            label="Entity"
            withAsterisk
            searchable
            allowDeselect={false}
            disabled={entities.loading}
            placeholder={
              entities.loading
                ? 'Loading entities…'
                : entityChoices?.length === 0
                  ? 'No entities yet'
                  : 'Choose an entity'
            }
            nothingFoundMessage="No entity matches"
            data={
              entityChoices?.map((e) => ({
                value: e.name,
                label: e.description ? `${e.name} — ${e.description}` : e.name,
              })) ?? []
            }
            value={values.entity || null}
            error={errors.entity}
            onChange={(name) => name !== null && form.setText('entity', name)}
          />
        )}
        <GroupSelect
          entity={entities ? values.entity || undefined : props.entity}
          needsEntity={entities !== undefined}
          value={values.group}
          error={errors.group}
          readOnly={readOnly}
          onChange={(group) => form.setText('group', group)}
        />
        <TextInput label="Version ID" maxLength={64} {...text('version_id')} />
        <TextInput
          label="Lora DevEUI"
          description="16 lower-case hex digits"
          styles={mono}
          maxLength={32}
          {...text('mac_1')}
        />
        <TextInput label="LTE IMSI" description="4 to 16 digits" styles={mono} maxLength={32} {...text('mac_2')} />
        <TextInput label="Manufacturing Type" value={manufacturingType} readOnly variant="filled" />
      </SimpleGrid>
      <Textarea label="Description" autosize minRows={2} maxRows={5} maxLength={500} {...text('description')} />
      {!readOnly && (
        <Stack gap={6}>
          <FileInput
            label="X509 certificate"
            description={
              hasCertificate
                ? 'A certificate is on file. Choose a file to replace it.'
                : 'Optional: a .pem or .pub file'
            }
            placeholder={hasCertificate && !values.removeCertificate ? 'Keep the certificate on file' : 'Choose a file'}
            accept={CERTIFICATE_ACCEPT}
            // Mantine's placeholder grey is too faint on a real element (2:1); dimmed passes AA.
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the chosen certificate file' }}
            leftSection={<IconCertificate size={16} aria-hidden />}
            value={form.certificateFile}
            onChange={(file) => void form.setCertificateFile(file)}
            error={errors.X509_certificate}
          />
          {hasCertificate && (
            <Checkbox
              label="Remove the certificate on file"
              checked={values.removeCertificate}
              onChange={(event) => form.setRemoveCertificate(event.currentTarget.checked)}
            />
          )}
        </Stack>
      )}
    </Stack>
  );
}
