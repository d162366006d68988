import { Button, Group, Modal, Paper, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import { useRegenerateCredentials } from '../api/regenerate-credentials.ts';
import { MqttCredentialsModal } from './mqtt-credentials-modal.tsx';

/**
 * 'Regenerate MQTT credentials': after a confirmation the server issues a new password, shown
 * once; the old one stops working, so the device must be given the new one.
 */
export function RegenerateCredentials({ landlord, name }: { landlord: boolean; name: string }) {
  const [asking, ask] = useDisclosure(false);
  const regenerate = useRegenerateCredentials(landlord, name);
  const confirm = () => {
    ask.close();
    regenerate.mutate();
  };
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb={6}>
        MQTT credentials
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        The device signs in to the broker as <b>{name}</b>. Its password was shown once, when it was issued.
      </Text>
      <Button
        variant="default"
        leftSection={<IconKey size={16} aria-hidden />}
        onClick={ask.open}
        loading={regenerate.isPending}
      >
        Regenerate MQTT credentials
      </Button>
      <Modal opened={asking} onClose={ask.close} title={<Text fw={700}>Regenerate MQTT credentials?</Text>} centered>
        <Text size="sm">
          The device&apos;s current password stops working at once. It cannot connect again until it is given the new
          password.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={ask.close} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={confirm}>
            Regenerate
          </Button>
        </Group>
      </Modal>
      <MqttCredentialsModal
        credentials={regenerate.data ?? null}
        title="New MQTT credentials"
        onDone={() => regenerate.reset()}
      />
    </Paper>
  );
}
