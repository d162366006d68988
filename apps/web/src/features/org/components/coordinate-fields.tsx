import { SimpleGrid, TextInput } from '@mantine/core';
import type { OrgForm } from '../hooks/use-org-form.ts';

/** Latitude then longitude (fleet §3), as text so up to 18 decimals survive. */
export function CoordinateFields({
  form,
  required,
  readOnly,
}: {
  form: OrgForm<'latitude' | 'longitude'>;
  required: boolean;
  readOnly?: boolean;
}) {
  const field = (name: 'latitude' | 'longitude', label: string, hint: string) => (
    <TextInput
      label={label}
      description={hint}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      withAsterisk={required && !readOnly}
      inputMode="decimal"
      autoComplete="off"
      readOnly={readOnly}
      value={form.values[name]}
      error={form.errors[name]}
      onChange={(event) => form.set(name, event.currentTarget.value)}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {field('latitude', 'Latitude', '-90 to 90, e.g. 52.520008')}
      {field('longitude', 'Longitude', '-180 to 180, e.g. 13.404954')}
    </SimpleGrid>
  );
}
