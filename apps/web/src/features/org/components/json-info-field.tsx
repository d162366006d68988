import { useRef } from 'react';
import { Button, FileButton, Group, Stack, Textarea } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { FILE_LIMITS, fileTooBig } from '@fleet/shared/constants';

interface JsonInfoFieldProps {
  label: string;
  value: string;
  error?: string;
  readOnly?: boolean;
  onChange(value: string): void;
  /** A file that could not be loaded: too big, or not JSON (its parse error). */
  onFileError(message: string | undefined): void;
}

/**
 * A JSON info (fleet §2): typed, or loaded from a .json file of at most 100000 bytes. A file too
 * big says so in the spec's words; a file that does not parse shows its parse error and is not loaded.
 */
export function JsonInfoField({ label, value, error, readOnly, onChange, onFileError }: JsonInfoFieldProps) {
  const reset = useRef<() => void>(null);
  const load = async (file: File | null) => {
    reset.current?.();
    if (!file) return;
    if (file.size > FILE_LIMITS.jsonInfo) return onFileError(fileTooBig(FILE_LIMITS.jsonInfo));
    const text = await file.text();
    try {
      JSON.parse(text);
    } catch (err) {
      return onFileError(`${file.name}: ${(err as Error).message}`);
    }
    onFileError(undefined);
    onChange(text);
  };
  return (
    <Stack gap={4}>
      <Textarea
        label={label}
        description="Optional: JSON, typed or loaded from a .json file"
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        value={value}
        error={error}
        readOnly={readOnly}
        autosize
        minRows={2}
        maxRows={8}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {!readOnly && (
        <Group gap="xs">
          <FileButton resetRef={reset} accept="application/json,.json" onChange={(file) => void load(file)}>
            {(props) => (
              <Button
                {...props}
                size="compact-sm"
                variant="subtle"
                leftSection={<IconFileUpload size={14} aria-hidden />}
                aria-label={`Load .json file for ${label}`}
              >
                Load .json file
              </Button>
            )}
          </FileButton>
        </Group>
      )}
    </Stack>
  );
}
