import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconDoorEnter } from '@tabler/icons-react';
import type { Entity } from '@fleet/shared/schemas/entity';
import { ListError } from '@/components/ui/table-states.tsx';

interface EntityPickerProps {
  entities: Entity[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  /** An entity the link or the tab named that does not exist (any more). */
  missing?: string | null;
  onOpen(entity: string): void;
}

/**
 * Asks a superadmin which entity an entity screen is to show (issue 25): a link into such a
 * screen without an entity lands here instead of calling `tenant//…`.
 */
export function EntityPicker({ entities, loading, failed, onRetry, missing, onOpen }: EntityPickerProps) {
  const [chosen, setChosen] = useState<string | null>(null);
  const options = (entities ?? []).map((e) => ({
    value: e.name,
    label: e.description ? `${e.name} — ${e.description}` : e.name,
  }));
  return (
    <Paper withBorder radius="md" p="lg" maw={560}>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            Choose an entity
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            This screen shows one entity’s data. As superadmin you can open any entity to look and act within it.
          </Text>
        </div>
        {missing && (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />}>
            Entity {missing} was not found.
          </Alert>
        )}
        {failed ? (
          <ListError title="The entities could not be loaded." onRetry={onRetry} />
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (chosen) onOpen(chosen);
            }}
          >
            <Group align="flex-end" gap="sm">
              <Select
                label="Entity"
                placeholder={loading ? 'Loading…' : 'Choose an entity'}
                data={options}
                value={chosen}
                onChange={setChosen}
                searchable
                nothingFoundMessage="No entity of that name"
                disabled={loading}
                style={{ flex: 1, minWidth: 200 }}
              />
              <Button type="submit" disabled={!chosen} leftSection={<IconDoorEnter size={16} aria-hidden />}>
                Open entity
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
