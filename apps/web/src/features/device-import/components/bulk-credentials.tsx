import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCircleCheck, IconDownload } from '@tabler/icons-react';
import { downloadText } from '@/lib/download.ts';
import { credentialsCsv, credentialsFileName, type IssuedDevice } from '../utils/credentials-csv.ts';

interface BulkCredentialsProps {
  /** The devices added on this visit, with the credentials their creates answered. */
  issued: readonly IssuedDevice[];
  /** Every row was added: the screen is the upload's end, and `onDone` opens the list. */
  done: boolean;
  onDone(): void;
}

const plural = (n: number) => `${n} device${n === 1 ? '' : 's'}`;

/**
 * The imported devices' MQTT credentials, offered once as a CSV download (issue 25): like a
 * single Add Device, the server keeps only a hash of each password, so this is the one time
 * anyone can have them. After a full upload it is the success screen; after a partial one it
 * stands above the results.
 */
export function BulkCredentials({ issued, done, onDone }: BulkCredentialsProps) {
  const [downloaded, setDownloaded] = useState(false);
  const download = () => {
    downloadText(credentialsFileName(new Date()), credentialsCsv(issued));
    setDownloaded(true);
  };
  return (
    <Paper withBorder radius="md" p="lg" maw={820}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon color="teal" variant="light" size="lg" radius="xl" aria-hidden>
            <IconCircleCheck size={22} />
          </ThemeIcon>
          <div>
            <Title order={2} size="h4">
              {done ? `${plural(issued.length)} added` : `Credentials of the ${plural(issued.length)} added`}
            </Title>
            <Text size="sm" c="dimmed">
              Each device connects to MQTT with its own username and password.
            </Text>
          </div>
        </Group>
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Shown once">
          Download the credentials now and give each device its own. The passwords are not stored in readable form and
          will not be shown again; if the file is lost, regenerate a device&apos;s credentials on its page.
        </Alert>
        <Group justify={done ? 'flex-end' : 'flex-start'} gap="sm">
          <Button
            onClick={download}
            variant={downloaded ? 'default' : 'filled'}
            leftSection={downloaded ? <IconCheck size={16} aria-hidden /> : <IconDownload size={16} aria-hidden />}
          >
            {downloaded ? 'Download the credentials again' : 'Download credentials (CSV)'}
          </Button>
          {done && (
            <Button variant={downloaded ? 'filled' : 'default'} onClick={onDone}>
              Go to the device list
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
