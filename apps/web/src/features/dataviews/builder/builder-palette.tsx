import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { DATAVIEW_WIDGETS, type DataviewWidget } from '@fleet/shared/constants';
import { WIDGETS } from './widgets.tsx';

/** The palette: one button per widget; each places a 1 × 1 item in the first free cell. */
export function BuilderPalette({ full, onAdd }: { full: boolean; onAdd(type: DataviewWidget): void }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="palette-title">
      <Title order={2} size="h5" id="palette-title" mb="xs">
        Palette
      </Title>
      <Stack gap="xs">
        {DATAVIEW_WIDGETS.map((type) => {
          const { label, Icon, hint } = WIDGETS[type];
          return (
            <Button
              key={type}
              variant="default"
              justify="flex-start"
              leftSection={<Icon size={18} aria-hidden />}
              disabled={full}
              onClick={() => onAdd(type)}
              aria-label={`Add ${label}`}
              title={hint}
            >
              {label}
            </Button>
          );
        })}
        <Text size="xs" c="dimmed" aria-live="polite">
          {full
            ? 'The grid is full: remove or shrink an item first.'
            : 'Items start as one cell in the first free place.'}
        </Text>
      </Stack>
    </Paper>
  );
}
