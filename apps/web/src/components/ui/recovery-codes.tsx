import { Alert, Button, CopyButton, SimpleGrid, Stack, Text } from '@mantine/core';

/** The ten recovery codes, shown once after enrolment, with a copy button (docs/two-factor.md). */
export function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone(): void; doneLabel: string }) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title="Save your recovery codes">
        Each code signs you in once if you lose your authenticator. They are shown only now.
      </Alert>
      <SimpleGrid cols={2} spacing={4} role="group" aria-label="Recovery codes">
        {codes.map((code) => (
          <Text key={code} ff="monospace" size="sm">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <CopyButton value={codes.join('\n')}>
        {({ copied, copy }) => (
          <Button variant="light" onClick={copy}>
            {copied ? 'Copied' : 'Copy codes'}
          </Button>
        )}
      </CopyButton>
      <Button onClick={onDone}>{doneLabel}</Button>
    </Stack>
  );
}
