import { Select, Stack, Text } from '@mantine/core';

export interface EntityOption {
  name: string;
  description: string;
}

interface EntitySelectProps {
  entities: readonly EntityOption[] | undefined;
  loading: boolean;
  value: string;
  onChange(name: string): void;
  error?: string;
  disabled?: boolean;
}

/** The landlord form's Entity selector; each option shows the name and the description (core §2). */
export function EntitySelect({ entities, loading, value, onChange, error, disabled }: EntitySelectProps) {
  const byName = new Map(entities?.map((e) => [e.name, e]));
  const empty = !loading && entities?.length === 0;
  return (
    <Select
      label="Entity"
      withAsterisk
      searchable
      allowDeselect={false}
      disabled={disabled || loading}
      placeholder={loading ? 'Loading entities…' : empty ? 'No entities yet' : 'Choose an entity'}
      description={empty ? 'Create an entity first, or make the account a superadmin.' : undefined}
      nothingFoundMessage="No entity matches"
      data={entities?.map((e) => ({ value: e.name, label: e.name })) ?? []}
      value={value || null}
      onChange={(name) => name !== null && onChange(name)}
      error={error}
      renderOption={({ option }) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {option.value}
          </Text>
          {byName.get(option.value)?.description && (
            <Text size="xs" c="dimmed">
              {byName.get(option.value)?.description}
            </Text>
          )}
        </Stack>
      )}
    />
  );
}
