import { Alert, Button, Grid, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { mayChangeDataviews } from '@fleet/shared/dataview-access';
import type { DataviewWithContent } from '@fleet/shared/schemas/dataview';
import { ListError } from '@/components/ui/table-states.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useDataview } from '@/features/dataviews/api/get-dataview.ts';
import { useUpdateDataview } from '@/features/dataviews/api/save-dataview.ts';
import { BuilderGrid } from '@/features/dataviews/builder/builder-grid.tsx';
import { BuilderPalette } from '@/features/dataviews/builder/builder-palette.tsx';
import { useBuilder } from '@/features/dataviews/builder/use-builder.ts';
import { useDataviewEntity } from '@/features/dataviews/hooks/use-dataview-entity.ts';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useUnsavedGuard } from '@/lib/navigation/use-unsaved-guard.tsx';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /appbuilder/{name}: the dataview builder (fleet §2, §9). */
export function AppBuilderPage() {
  useDocumentTitle('App builder');
  const { name = '' } = useParams();
  const { entity, list } = useDataviewEntity();
  const dataview = useDataview(entity, name);
  useBackWhenMissing(name === '' || entity === '' || isNotFound(dataview.error), list);
  if (dataview.isPending || isNotFound(dataview.error)) return <PageLoader />;
  if (dataview.isError)
    return (
      <>
        <PageHeader title="App builder" />
        <ListError title="The dataview could not be loaded." onRetry={() => void dataview.refetch()} />
      </>
    );
  return <Builder key={dataview.data.updated_at} dataview={dataview.data} entity={entity} />;
}

function Builder({ dataview, entity }: { dataview: DataviewWithContent; entity: string }) {
  const { claims } = useSession();
  // The superadmin designs too: the server lets it change any dataview.
  const editable = mayChangeDataviews(claims);
  const b = useBuilder(dataview);
  const save = useUpdateDataview(entity, dataview.name);
  const onSave = () => save.mutate({ content: { ...dataview.content, layout: { items: b.items } } });
  const leaveGuard = useUnsavedGuard(editable && b.dirty, 'The layout has changes that are not saved.');
  return (
    <>
      {leaveGuard}
      <PageHeader
        title="App builder"
        description={`${dataview.name} (${dataview.content.displayName}) in ${entity}`}
        actions={
          editable && (
            <Group gap="sm">
              <Button variant="default" disabled={!b.dirty || save.isPending} onClick={b.reset}>
                Undo changes
              </Button>
              <Button
                leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                disabled={!b.dirty}
                loading={save.isPending}
                onClick={onSave}
              >
                Save layout
              </Button>
            </Group>
          )
        }
      />
      {!editable && (
        <Alert color="gray" mb="md" title="Read only">
          Only admins with all access or Dataview_all change a dataview&apos;s layout.
        </Alert>
      )}
      <Grid gap="lg" align="flex-start">
        {editable && (
          <Grid.Col span={{ base: 12, md: 3 }}>
            <BuilderPalette full={b.full} onAdd={b.add} />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, md: editable ? 9 : 12 }}>
          <Stack gap="xs">
            <BuilderGrid
              items={b.items}
              editable={editable}
              onLayout={b.positions}
              onTitle={b.title}
              onRemove={b.remove}
              onNudge={b.nudge}
            />
            {b.items.length === 0 && (
              <Text size="sm" c="dimmed">
                This dataview has no items yet{editable ? ': add one from the palette.' : '.'}
              </Text>
            )}
            {editable && (
              <Text size="xs" c="dimmed" id="builder-keys">
                Drag an item to move it and drag its corner to resize it. With the keyboard: Tab to an item, arrows move
                it one cell, Shift + arrows resize it, Delete removes it.
              </Text>
            )}
            <VisuallyHidden aria-live="polite">{b.notice}</VisuallyHidden>
            {b.dirty && editable && (
              <Text size="sm" c="orange.8" role="status">
                Unsaved changes
              </Text>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
