import { ActionIcon, Button, Group, Slider, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { BEACON_RSSI_MAX, BEACON_RSSI_MIN, BEACON_RSSI_STEP } from '@fleet/shared/beacon-constants';
import type { BeaconForm } from '../hooks/use-beacon-form.ts';

interface Props {
  form: BeaconForm;
  saving: boolean;
  onSubmit(): void;
}

/** The add/edit form of the Manage Beacons modal (fleet §5). The MAC cannot change in edit mode. */
export function BeaconFormView({ form, saving, onSubmit }: Props) {
  const { values } = form;
  const field = (path: string) => ({ error: form.errorOf(path), onBlur: () => form.touch(path) });
  return (
    <form
      noValidate
      aria-labelledby="beacon-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (form.valid) onSubmit();
      }}
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id="beacon-form-title">
          {form.editing ? `Edit beacon ${form.editing.beacon_mac}` : 'Add a beacon'}
        </Title>
        <TextInput
          label="Beacon MAC"
          placeholder="c3a1b2d4e5f6"
          description={form.editing ? 'The MAC of a configured beacon cannot change' : '12 hex digits; colons allowed'}
          required
          disabled={form.editing !== null}
          value={values.beacon_mac}
          onChange={(e) => form.set('beacon_mac', e.currentTarget.value)}
          {...field('beacon_mac')}
        />
        <TextInput
          label="Patient Name"
          required
          value={values.patient_name}
          onChange={(e) => form.set('patient_name', e.currentTarget.value)}
          {...field('patient_name')}
        />
        <TextInput
          label="Room Number"
          value={values.room_number}
          onChange={(e) => form.set('room_number', e.currentTarget.value)}
          {...field('room_number')}
        />
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <Group justify="space-between" mb={4}>
            <Text component="legend" size="sm" fw={500}>
              Medications
            </Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              disabled={!form.canAddMedication}
              onClick={form.addMedication}
            >
              Add Medication
            </Button>
          </Group>
          <Stack gap="xs">
            {values.medications.map((m, i) => (
              <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  aria-label={`Medication ${i + 1} name`}
                  placeholder="Name"
                  required
                  style={{ flex: 2 }}
                  value={m.name}
                  onChange={(e) => form.setMedication(i, { name: e.currentTarget.value })}
                  {...field(`medications.${i}.name`)}
                />
                <TextInput
                  aria-label={`Medication ${i + 1} dosage`}
                  placeholder="Dosage"
                  required
                  style={{ flex: 1.4, minWidth: 110 }}
                  value={m.dosage}
                  onChange={(e) => form.setMedication(i, { dosage: e.currentTarget.value })}
                  {...field(`medications.${i}.dosage`)}
                />
                <TextInput
                  aria-label={`Medication ${i + 1} time`}
                  type="time"
                  required
                  // Wide enough for the longest way a browser writes 08:00 ('08:00 AM' and its
                  // clock button at the largest font), never squeezed by the name and dosage.
                  style={{ flex: '0 0 9.5rem' }}
                  value={m.time}
                  onChange={(e) => form.setMedication(i, { time: e.currentTarget.value })}
                  {...field(`medications.${i}.time`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  aria-label={`Remove medication ${i + 1}`}
                  disabled={!form.canRemoveMedication}
                  onClick={() => form.removeMedication(i)}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        </fieldset>
        <div>
          <Text size="sm" fw={500} id="rssi-label">
            RSSI Threshold: {values.rssi_threshold} dBm
          </Text>
          <Slider
            thumbLabel="RSSI Threshold"
            min={BEACON_RSSI_MIN}
            max={BEACON_RSSI_MAX}
            step={BEACON_RSSI_STEP}
            value={values.rssi_threshold}
            onChange={(v) => form.set('rssi_threshold', v)}
            label={(v) => `${v} dBm`}
            marks={[
              { value: BEACON_RSSI_MIN, label: `${BEACON_RSSI_MIN}` },
              { value: BEACON_RSSI_MAX, label: `${BEACON_RSSI_MAX}` },
            ]}
            mb="md"
          />
        </div>
        <Switch label="Active" checked={values.active} onChange={(e) => form.set('active', e.currentTarget.checked)} />
        <Textarea
          label="Notes"
          autosize
          minRows={2}
          value={values.notes}
          onChange={(e) => form.set('notes', e.currentTarget.value)}
          {...field('notes')}
        />
        <Group justify="flex-end" gap="sm" wrap="nowrap" align="flex-start">
          {!form.valid && (
            // Why the button is disabled, in words beside it (a disabled button takes no focus,
            // so a tooltip on it would never reach a keyboard user).
            <Text size="sm" c="dimmed" id="beacon-form-incomplete" mr="auto" aria-live="polite">
              To {form.editing ? 'update' : 'add'} the beacon, complete: {form.incomplete.join(', ')}.
            </Text>
          )}
          {form.editing && (
            <Button variant="default" onClick={form.reset} style={{ flexShrink: 0 }}>
              Cancel Edit
            </Button>
          )}
          <Button
            type="submit"
            disabled={!form.valid}
            loading={saving}
            aria-describedby={form.valid ? undefined : 'beacon-form-incomplete'}
            style={{ flexShrink: 0 }}
          >
            {form.editing ? 'Update Beacon' : 'Add Beacon'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
