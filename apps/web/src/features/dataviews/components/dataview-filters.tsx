import { Checkbox, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { DataviewFacets } from '@fleet/shared/schemas/dataview';

export interface DataviewFilterValues {
  entity: string[];
  owner: string[];
  version: string[];
}

const GROUPS = [
  ['entity', 'Entity', 'entities'],
  ['owner', 'Owner', 'owners'],
  ['version', 'Version', 'versions'],
] as const;

/** The landlord list's sidebar (fleet §2): checkboxes for entity, owner and version. */
export function DataviewFilters({
  facets,
  value,
  onChange,
}: {
  facets: DataviewFacets | undefined;
  value: DataviewFilterValues;
  onChange(next: DataviewFilterValues): void;
}) {
  return (
    <Paper withBorder radius="md" p="md" component="aside" aria-labelledby="dataview-filters-title">
      <Title order={2} size="h5" id="dataview-filters-title" mb="sm">
        Filters
      </Title>
      <Stack gap="lg">
        {GROUPS.map(([key, label, facet]) => {
          const options = facets?.[facet] ?? [];
          return (
            <Checkbox.Group
              key={key}
              label={label}
              value={value[key]}
              onChange={(next) => onChange({ ...value, [key]: next })}
            >
              {options.length === 0 ? (
                <Text size="xs" c="dimmed" mt={4}>
                  {facets ? 'Nothing to filter by yet' : 'Loading…'}
                </Text>
              ) : (
                <ScrollArea.Autosize mah={180} type="auto">
                  <Stack gap={6} mt={6}>
                    {options.map((o) => (
                      <Checkbox key={o} value={o} label={o} size="sm" />
                    ))}
                  </Stack>
                </ScrollArea.Autosize>
              )}
            </Checkbox.Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
