import { SimpleGrid } from '@mantine/core';
import type { OrgForm } from '../hooks/use-org-form.ts';
import { JsonInfoField } from './json-info-field.tsx';

export type InfoKey = 'networkinfo' | 'globalinfo' | 'allocinfo' | 'unallocinfo' | 'configuration';

const LABELS: Record<InfoKey, string> = {
  allocinfo: 'Alloc Info',
  globalinfo: 'Global Info',
  unallocinfo: 'Unalloc Info',
  networkinfo: 'Network Info',
  configuration: 'Configuration',
};

/** The JSON infos of a form, in the order given (fleet §2). */
export function InfoFields<F extends string>({
  form,
  fields,
  readOnly,
}: {
  form: OrgForm<F | InfoKey>;
  fields: readonly InfoKey[];
  readOnly?: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
      {fields.map((field) => (
        <JsonInfoField
          key={field}
          label={LABELS[field]}
          value={form.values[field]}
          error={form.errors[field]}
          readOnly={readOnly}
          onChange={(v) => form.set(field, v)}
          onFileError={(message) => form.setError(field, message)}
        />
      ))}
    </SimpleGrid>
  );
}
