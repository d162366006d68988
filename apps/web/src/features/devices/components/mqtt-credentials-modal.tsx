import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { notifyError } from '@/lib/notify.ts';

export interface MqttCredentials {
  username: string;
  password: string;
}

interface MqttCredentialsModalProps {
  /** The credentials to show; the modal is open while they are set. */
  credentials: MqttCredentials | null;
  title: string;
  onDone(): void;
}

/**
 * A device's MQTT credentials right after they were issued. The server keeps only a hash of
 * the password, so this is the one time anyone sees it: the modal says so and offers Copy.
 */
export function MqttCredentialsModal({ credentials, title, onDone }: MqttCredentialsModalProps) {
  return (
    <Modal
      opened={credentials !== null}
      onClose={onDone}
      title={<Text fw={700}>{title}</Text>}
      centered
      size="lg"
      closeOnClickOutside={false}
      withCloseButton={false}
    >
      {credentials && (
        <Stack gap="md">
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Shown once">
            Copy the password now and give it to the device. It is not stored in readable form and will not be shown
            again; if it is lost, regenerate the credentials on the device&apos;s page.
          </Alert>
          <CopyField label="MQTT username" value={credentials.username} />
          <CopyField label="MQTT password" value={credentials.password} />
          <Group justify="flex-end">
            <Button onClick={onDone} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (error) {
      console.error('Could not copy:', error);
      notifyError(`Could not copy the ${label}; select it and copy it by hand.`);
    }
  };
  return (
    <TextInput
      label={label}
      readOnly
      value={value}
      onFocus={(event) => event.currentTarget.select()}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      rightSectionWidth={42}
      rightSection={
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
          <ActionIcon
            variant={copied ? 'filled' : 'subtle'}
            color={copied ? 'teal' : undefined}
            aria-label={`Copy ${label}`}
            onClick={() => void copy()}
          >
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      }
    />
  );
}
