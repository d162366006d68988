import {
  Alert,
  Box,
  Button,
  Collapse,
  Group,
  Modal,
  Progress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { ProvisionFileStatus } from '@fleet/shared/provision';
import { provisioning, useProvisioning } from '../hooks/use-provisioning.ts';
import { isActive, statusText, type ProvisionView } from '../utils/provision-state.ts';
import classes from '@/components/ui/tones.module.css';

/** Tones of the overall status and of each file's badge. */
const STATUS_TONE = {
  Success: 'green',
  Failed: 'red',
  'Partially Succeeded': 'yellow',
  'In Progress': 'blue',
} as const;
const FILE_TONE: Record<ProvisionFileStatus, string> = {
  pending: 'gray',
  queued: 'grape',
  downloading: 'blue',
  completed: 'green',
  failed: 'red',
};

/**
 * The provisioning modal (core §2, §4): device and session ids, the counters, the overall
 * status, the error, and the files and the log as collapsible lists scrolling at 200 px.
 */
export function ProvisioningModal() {
  const device = useProvisioning((s) => s.modal);
  const view = useProvisioning((s) => (s.modal === null ? undefined : s.sessions.get(s.modal)?.view));
  return (
    <Modal
      opened={device !== null}
      onClose={() => provisioning.closeModal()}
      title="Provisioning"
      size="lg"
      transitionProps={{ duration: 500 }}
    >
      {device && view ? <ProvisioningBody view={view} /> : <Text c="dimmed">Connecting…</Text>}
    </Modal>
  );
}

function ProvisioningBody({ view }: { view: ProvisionView }) {
  const text = statusText(view);
  const done = view.completed_files + view.failed_files;
  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="xs">
        <Field label="Device ID" value={view.deviceId} />
        <Field label="Session ID" value={view.session_id || '—'} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
        <Counter label="Total" value={view.total_files} />
        <Counter label="Completed" value={view.completed_files} />
        <Counter label="Failed" value={view.failed_files} />
        <Counter label="Downloading" value={view.downloading_files} />
      </SimpleGrid>
      <Box
        role="status"
        aria-live="polite"
        className={classes.tone}
        data-tone={STATUS_TONE[text]}
        p="sm"
        style={banner}
      >
        <Group justify="space-between">
          <Text fw={700} c="var(--tone-fg)">
            {text}
          </Text>
          <Text size="sm" c="var(--tone-fg)">
            {done} of {view.total_files} files
          </Text>
        </Group>
        <Progress
          mt="xs"
          size="sm"
          value={view.total_files ? (done / view.total_files) * 100 : 0}
          color={STATUS_TONE[text]}
          aria-label="Files done"
        />
      </Box>
      {view.errorMessage && (
        <Alert color="red" variant="light" title="Error">
          {view.errorMessage}
        </Alert>
      )}
      <Section title={`Files (${view.files.length})`} initiallyOpen>
        <Stack gap={4}>
          {view.files.map((f) => (
            <Group key={f.device_path} justify="space-between" wrap="nowrap" gap="xs">
              <Box miw={0}>
                <Text size="sm" truncate>
                  {f.filename}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace" truncate>
                  {f.device_path}
                </Text>
              </Box>
              <span className={`${classes.tone} ${classes.pill}`} data-tone={FILE_TONE[f.status]}>
                {f.status}
              </span>
            </Group>
          ))}
        </Stack>
      </Section>
      <Section title={`Log (${view.message.length})`}>
        <Stack gap={2}>
          {view.message.map((line, i) => (
            <Text key={i} size="xs" ff="monospace">
              {line}
            </Text>
          ))}
        </Stack>
      </Section>
      <Group justify="flex-end">
        {isActive(view) && (
          <Button
            color="red"
            variant="light"
            onClick={() => {
              const entity = provisioning.getState().sessions.get(view.deviceId)?.entity;
              if (entity) void provisioning.cancel(entity, view.deviceId);
            }}
          >
            Cancel provisioning
          </Button>
        )}
        <Button variant="default" onClick={() => provisioning.closeModal()}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

const banner = {
  borderRadius: 'var(--mantine-radius-md)',
  background: 'var(--tone-bg)',
  borderLeft: '4px solid var(--tone-fg)',
};

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </Box>
  );
}

function Counter({ label, value }: { label: string; value: number }) {
  return (
    <Box p="xs" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" aria-label={`${label} files`}>
        {value}
      </Text>
    </Box>
  );
}

/** A titled list that folds away; its content scrolls past 200 px. */
function Section({
  title,
  children,
  initiallyOpen = false,
}: {
  title: string;
  children: ReactNode;
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <Box>
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <Group gap={4}>
          {open ? <IconChevronDown size={16} aria-hidden /> : <IconChevronRight size={16} aria-hidden />}
          <Text fw={600} size="sm">
            {title}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>
        <ScrollArea.Autosize mah={200} mt="xs" type="auto">
          {children}
        </ScrollArea.Autosize>
      </Collapse>
    </Box>
  );
}
