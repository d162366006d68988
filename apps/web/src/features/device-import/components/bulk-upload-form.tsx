import {
  Anchor,
  Button,
  FileInput,
  Group,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconDownload, IconFileTypeCsv } from '@tabler/icons-react';
import { downloadText } from '@/lib/download.ts';
import type { BulkUpload } from '../hooks/use-bulk-upload.ts';
import { CSV_TEMPLATE } from '../utils/device-csv.ts';
import { BulkCredentials } from './bulk-credentials.tsx';
import { BulkPreview } from './bulk-preview.tsx';
import { BulkResults } from './bulk-results.tsx';
import type { EntityChoice } from '@/lib/forms/entity-choice.ts';

interface BulkUploadFormProps {
  upload: BulkUpload;
  /** The landlord chooses the entity the devices join. */
  entities?: { choices: readonly EntityChoice[] | undefined; loading: boolean };
  onCancel(): void;
  /** Every row was added and the user is done with the credentials: the list opens (fleet §4). */
  onDone(): void;
}

/**
 * The bulk device upload (fleet §2): manufacture type, CSV file, template, preview, progress and
 * results; the added devices' credentials once, and after a full upload only them.
 */
export function BulkUploadForm({ upload, entities, onCancel, onDone }: BulkUploadFormProps) {
  const { rows, results, adding, progress, issued } = upload;
  if (upload.done) return <BulkCredentials issued={issued} done onDone={onDone} />;
  const retryable = results?.some((r) => r.status === 'failed' || r.status === 'stopped') ?? false;
  const percent = progress.total === 0 ? 0 : (progress.done / progress.total) * 100;
  return (
    <Stack gap="lg" maw={820}>
      <Paper withBorder radius="md" p="lg">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void upload.submit();
          }}
        >
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label="Manufacture type"
                description="Required for the record; uploaded devices are registered as CC1"
                withAsterisk
                value={upload.type}
                error={upload.errors.type}
                disabled={adding}
                onChange={(event) => upload.setType(event.currentTarget.value)}
              />
              {entities && (
                <Select
                  label="Entity"
                  withAsterisk
                  searchable
                  allowDeselect={false}
                  disabled={adding || entities.loading}
                  placeholder={entities.loading ? 'Loading entities…' : 'Choose an entity'}
                  data={entities.choices?.map((e) => e.name) ?? []}
                  value={upload.entity || null}
                  error={upload.errors.entity}
                  onChange={(name) => name !== null && upload.setEntity(name)}
                />
              )}
            </SimpleGrid>
            <FileInput
              label="CSV file"
              description="A 'Device ID' column, and optional 'Description' and 'Version ID' columns"
              placeholder="Choose a .csv file"
              accept=".csv,text/csv"
              // Mantine's placeholder grey is too faint on a real element (2:1); dimmed passes AA.
              styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
              clearable
              clearButtonProps={{ 'aria-label': 'Remove the chosen CSV file' }}
              withAsterisk
              leftSection={<IconFileTypeCsv size={16} aria-hidden />}
              value={upload.file}
              onChange={upload.chooseFile}
              error={upload.fileError}
              disabled={adding}
            />
            <Group gap={6}>
              <IconDownload size={16} aria-hidden />
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => downloadText('devices-template.csv', CSV_TEMPLATE)}
              >
                Download a template
              </Anchor>
              <Text size="sm" c="dimmed">
                with three sample device ids
              </Text>
            </Group>
            {adding && (
              <Stack gap={4}>
                <Progress value={percent} size="lg" animated aria-label="Adding devices" />
                <Text size="sm" aria-live="polite">
                  Adding devices: {progress.done} of {progress.total}
                </Text>
              </Stack>
            )}
            <Group justify="flex-end">
              {retryable && !adding && (
                <Text size="sm" c="dimmed" mr="auto">
                  Retry the failed rows below, or choose another file.
                </Text>
              )}
              {adding ? (
                <Button variant="default" onClick={upload.stop}>
                  Stop
                </Button>
              ) : (
                <Button variant="default" onClick={onCancel}>
                  Cancel
                </Button>
              )}
              <Button type="submit" loading={adding} disabled={retryable}>
                Add Devices
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {issued.length > 0 && <BulkCredentials issued={issued} done={false} onDone={onDone} />}
      {results ? (
        <BulkResults results={results} onRetry={() => void upload.retry()} busy={adding} />
      ) : (
        rows && <BulkPreview rows={rows} />
      )}
    </Stack>
  );
}
