import { useState } from 'react';
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Stack, Table, Text } from '@mantine/core';
import type { Webhook } from '@fleet/shared/schemas/webhook';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { ApiError } from '@/lib/api/api-error.ts';
import { formatDateTime } from '@/lib/format/time.ts';
import { useWebhookChanges, useWebhooks, type WebhookFields } from '../api/webhooks-api.ts';
import { WebhookDeliveries } from './webhook-deliveries.tsx';
import { WebhookForm } from './webhook-form.tsx';

type Editing = { mode: 'create' } | { mode: 'edit'; hook: Webhook } | null;

/** A 400's field messages, by the form's field names. */
function fieldErrors(error: unknown): Partial<Record<keyof WebhookFields, string>> {
  if (!(error instanceof ApiError) || !error.details) return {};
  const out: Record<string, string> = {};
  for (const [path, messages] of Object.entries(error.details)) out[path.split('.').at(-1)!] = messages[0] ?? '';
  return out;
}

/** The entity's webhooks: the turned-off notice, the list and its actions, the forms and the log. */
export function WebhooksView() {
  const hooks = useWebhooks();
  const changes = useWebhookChanges();
  const confirm = useConfirmDelete();
  const [editing, setEditing] = useState<Editing>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const off = (hooks.data?.data ?? []).filter((h) => h.disabled_at !== null);
  const saving = editing?.mode === 'edit' ? changes.update : changes.create;

  const submit = (fields: WebhookFields) => {
    if (editing?.mode === 'edit')
      changes.update.mutate({ id: editing.hook.id, $set: fields }, { onSuccess: () => setEditing(null) });
    else
      changes.create.mutate(fields, {
        onSuccess: (made) => {
          setEditing(null);
          setSecret(made.data.secret);
        },
      });
  };

  return (
    <Stack gap="sm">
      {off.map((h) => (
        <Alert key={h.id} color="red" title="A webhook was turned off" data-webhook-off={h.id}>
          {h.url} was turned off {formatDateTime(h.disabled_at!)}: {h.disabled_reason}. Fix the receiver, then turn it
          on again.
        </Alert>
      ))}
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Events are POSTed as signed JSON (see the Fleet-Signature header in the docs).
        </Text>
        <Button onClick={() => setEditing({ mode: 'create' })}>New webhook</Button>
      </Group>
      <DataTable
        label="Webhooks"
        columns={[{ header: 'URL' }, { header: 'Events' }, { header: 'Status' }, { header: 'Actions' }]}
        items={hooks.data?.data}
        loading={hooks.isPending}
        failed={hooks.isError}
        errorTitle="The webhooks could not be loaded."
        onRetry={() => void hooks.refetch()}
        empty={<ListEmpty title="No webhooks" description="Add one to send this entity's events to your systems." />}
        minWidth={860}
        look={{ verticalSpacing: 'xs', highlightOnHover: true }}
        row={(h) => (
          <Table.Tr key={h.id} data-webhook={h.id}>
            <Table.Td>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {h.url}
              </Text>
              {h.description && (
                <Text size="xs" c="dimmed">
                  {h.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{h.events.join(', ')}</Text>
            </Table.Td>
            <Table.Td>
              <Badge color={h.enabled ? 'green' : h.disabled_at ? 'red' : 'gray'} variant="light">
                {h.enabled ? 'On' : h.disabled_at ? 'Turned off' : 'Off'}
              </Badge>
              {h.consecutive_failures > 0 && (
                <Text size="xs" c="dimmed">
                  {h.consecutive_failures} failed in a row
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Button size="xs" variant="light" onClick={() => setLogOf(h)}>
                  Log
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  loading={changes.test.isPending && changes.test.variables === h.id}
                  onClick={() => changes.test.mutate(h.id, { onSuccess: () => setLogOf(h) })}
                >
                  Send test
                </Button>
                <Button size="xs" variant="default" onClick={() => setEditing({ mode: 'edit', hook: h })}>
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => changes.rotate.mutate(h.id, { onSuccess: (r) => setSecret(r.data.secret) })}
                >
                  New secret
                </Button>
                <DeleteAction
                  tooltip="Delete"
                  label={`Delete webhook ${h.url}`}
                  loading={changes.remove.isPending && changes.remove.variables === h.id}
                  onClick={() => void confirm().then((yes) => yes && changes.remove.mutate(h.id))}
                />
              </Group>
            </Table.Td>
          </Table.Tr>
        )}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.mode === 'edit' ? 'Edit webhook' : 'New webhook'}
        size="lg"
      >
        {editing && (
          <WebhookForm
            initial={editing.mode === 'edit' ? editing.hook : undefined}
            busy={saving.isPending}
            errors={fieldErrors(saving.error)}
            onSubmit={submit}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title="Signing secret" size="lg">
        <Stack gap="sm">
          <Text size="sm">
            Copy it now: it is shown only this once. Your receiver checks each event&apos;s Fleet-Signature with it.
          </Text>
          <Code block data-webhook-secret>
            {secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ''}>
              {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy secret'}</Button>}
            </CopyButton>
          </Group>
        </Stack>
      </Modal>
      <Modal
        opened={logOf !== null}
        onClose={() => setLogOf(null)}
        title={`Delivery log: ${logOf?.url ?? ''}`}
        size="xl"
      >
        {logOf && <WebhookDeliveries id={logOf.id} />}
      </Modal>
    </Stack>
  );
}
