import { useState } from 'react';
import { Button, Checkbox, Group, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { WEBHOOK_EVENTS, type Webhook, type WebhookEvent } from '@fleet/shared/schemas/webhook';
import type { WebhookFields } from '../api/webhooks-api.ts';

interface WebhookFormProps {
  initial?: Webhook;
  busy: boolean;
  /** A field's message from the server's 400, by field name. */
  errors?: Partial<Record<keyof WebhookFields, string>>;
  onSubmit(fields: WebhookFields): void;
  onCancel(): void;
}

/** A webhook's URL, description, events and whether it is on. */
export function WebhookForm({ initial, busy, errors = {}, onSubmit, onCancel }: WebhookFormProps) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [events, setEvents] = useState<string[]>(initial?.events ?? ['alert.raised']);
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ url: url.trim(), description, events: events as WebhookEvent[], enabled });
      }}
    >
      <Stack gap="sm">
        <TextInput
          label="URL"
          description="https, or http to localhost only"
          placeholder="https://example.com/fleet-events"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={errors.url}
        />
        <TextInput
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={errors.description}
        />
        <Checkbox.Group label="Events" value={events} onChange={setEvents} error={errors.events}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} mt={6}>
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox key={event} value={event} label={event} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Switch label="On" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} disabled={events.length === 0 || url.trim() === ''}>
            {initial ? 'Save' : 'Create webhook'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
