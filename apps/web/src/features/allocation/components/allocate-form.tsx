import { useState } from 'react';
import { Button, Checkbox, Group, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import type { AllocateRequest } from '@fleet/shared/schemas/allocation';
import { checkAllocation, type AllocateErrors, type AllocateValues } from '../utils/allocate-form.ts';

interface AllocateFormProps {
  device: string;
  kiosk: string;
  /** The entity's dataviews, by name. */
  dataviews: string[];
  /** A dataview's stored content, to start its JSON text from. */
  loadContent(name: string): Promise<unknown>;
  busy: boolean;
  onSubmit(request: AllocateRequest): void;
  onCancel(): void;
  /** The network info field (typed or loaded from a .json file), rendered by the screen. */
  networkField(props: { value: string; error?: string; onChange(v: string): void }): React.ReactNode;
}

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } };

/**
 * Allocate Device (fleet §2): the new user ID, a checkbox per dataview with its JSON text area
 * (filled from the dataview's content when checked), and optional network info.
 */
export function AllocateForm(props: AllocateFormProps) {
  const { device, kiosk, dataviews, loadContent, busy, onSubmit, onCancel, networkField } = props;
  const [values, setValues] = useState<AllocateValues>({ visitor: '', apps: {}, network: '' });
  const [errors, setErrors] = useState<AllocateErrors>({ apps: {} });

  const toggle = async (name: string, checked: boolean) => {
    if (!checked) {
      setValues((v) => {
        const apps = { ...v.apps };
        delete apps[name];
        return { ...v, apps };
      });
      return;
    }
    setValues((v) => ({ ...v, apps: { ...v.apps, [name]: '' } }));
    const content = await loadContent(name).catch(() => ({}));
    // Only if still checked and untouched.
    setValues((v) =>
      v.apps[name] === '' ? { ...v, apps: { ...v.apps, [name]: JSON.stringify(content, null, 2) } } : v,
    );
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const { errors: found, request } = checkAllocation(values, device);
    setErrors(found);
    if (request) onSubmit(request);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Allocate device ${device}`}>
      <Stack gap="lg">
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              From kiosk {kiosk}
            </Text>
            <TextInput
              label="New user ID"
              required
              value={values.visitor}
              error={errors.visitor}
              disabled={busy}
              onChange={(e) => setValues({ ...values, visitor: e.currentTarget.value })}
              autoComplete="off"
            />
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="md">
            Dataviews
          </Title>
          {dataviews.length === 0 ? (
            <Text size="sm" c="dimmed">
              The entity has no dataviews.
            </Text>
          ) : (
            <Stack gap="md">
              {dataviews.map((name) => {
                const checked = name in values.apps;
                return (
                  <Stack key={name} gap={6}>
                    <Checkbox
                      label={name}
                      checked={checked}
                      disabled={busy}
                      onChange={(e) => void toggle(name, e.currentTarget.checked)}
                    />
                    {checked && (
                      <Textarea
                        aria-label={`JSON for dataview ${name}`}
                        value={values.apps[name]}
                        error={errors.apps[name]}
                        disabled={busy}
                        autosize
                        minRows={3}
                        maxRows={10}
                        spellCheck={false}
                        styles={mono}
                        onChange={(e) => {
                          const text = e.currentTarget.value;
                          setValues((v) => ({ ...v, apps: { ...v.apps, [name]: text } }));
                        }}
                      />
                    )}
                  </Stack>
                );
              })}
            </Stack>
          )}
        </Paper>
        <Paper withBorder radius="md" p="lg">
          {networkField({
            value: values.network,
            error: errors.network,
            onChange: (network) => setValues((v) => ({ ...v, network })),
          })}
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Allocate
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
