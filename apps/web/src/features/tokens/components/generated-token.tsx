import { useState } from 'react';
import { Button, CloseButton, Group, Paper, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { copyToken } from './copy-token.ts';

interface GeneratedTokenProps {
  value: string;
  onDismiss(): void;
}

/** A freshly generated token's value, shown this once, with a Copy button. */
export function GeneratedToken({ value, onDismiss }: GeneratedTokenProps) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void copyToken(value).then((ok) => {
      setCopied(ok);
      if (ok) setTimeout(() => setCopied(false), 2000);
    });

  return (
    <Paper withBorder radius="md" p="md" style={{ borderLeft: '4px solid var(--mantine-color-teal-6)' }}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={600}>New token</Text>
        <CloseButton aria-label="Dismiss the new token" onClick={onDismiss} />
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Copy the value now: it will not be shown again.
      </Text>
      <Group gap="sm" wrap="nowrap" align="flex-end">
        <TextInput
          label="Token value"
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ flex: 1, minWidth: 0 }}
        />
        <Button
          onClick={copy}
          leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Group>
    </Paper>
  );
}
