import { Checkbox, Chip, Group, NumberInput, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { defaultWindow, type FormField, type RolloutFormValues } from '../utils/rollout-form-state.ts';

type NumberKnob =
  'success_threshold_pct' | 'error_threshold_pct' | 'report_timeout_s' | 'max_in_flight' | 'soak_s' | 'jitter_s';

const NUMBERS: ReadonlyArray<{
  key: NumberKnob;
  label: string;
  description: string;
  min: number;
  max: number;
  suffix?: string;
}> = [
  {
    key: 'success_threshold_pct',
    label: 'Success threshold',
    description: 'Share of a stage on the version before the next starts',
    min: 1,
    max: 100,
    suffix: ' %',
  },
  {
    key: 'error_threshold_pct',
    label: 'Error threshold',
    description: 'A stage whose failed share goes over this pauses the rollout (0: any failure)',
    min: 0,
    max: 100,
    suffix: ' %',
  },
  {
    key: 'report_timeout_s',
    label: 'Report timeout',
    description: 'A device that has not answered after this long counts as failed',
    min: 10,
    max: 604_800,
    suffix: ' s',
  },
  { key: 'max_in_flight', label: 'Max in flight', description: 'Devices updating at once', min: 1, max: 10_000 },
  {
    key: 'soak_s',
    label: 'Soak time',
    description: 'After each stage, a device that goes silent or reboot-loops in this time counts as failed (0: none)',
    min: 0,
    max: 604_800,
    suffix: ' s',
  },
  {
    key: 'jitter_s',
    label: 'Jitter',
    description: 'Each send waits a random 0 to this many seconds (0: none)',
    min: 0,
    max: 86_400,
    suffix: ' s',
  },
];
const WINDOW_TEXTS = [
  { key: 'from', label: 'From', placeholder: 'HH:MM', w: 100 },
  { key: 'to', label: 'To', placeholder: 'HH:MM', w: 100 },
  { key: 'tz', label: 'Time zone', placeholder: 'Europe/Paris', w: 220 },
] as const;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

interface KnobFieldsProps {
  values: RolloutFormValues;
  errors: Partial<Record<FormField, string>>;
  onChange(patch: Partial<RolloutFormValues>): void;
}

/** Thresholds, timeouts, pacing, approval and the time window. */
export function KnobFields({ values: v, errors, onChange }: KnobFieldsProps) {
  const w = v.window;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rollout-knobs-title">
      <Title order={2} size="h4" mb="sm" id="rollout-knobs-title">
        Health and pacing
      </Title>
      <Stack gap="sm">
        <Group gap="md" align="start">
          {NUMBERS.map((n) => (
            <NumberInput
              key={n.key}
              label={n.label}
              description={n.description}
              min={n.min}
              max={n.max}
              suffix={n.suffix}
              allowDecimal={false}
              value={v[n.key]}
              error={errors[n.key]}
              onChange={(x) => onChange({ [n.key]: typeof x === 'number' ? x : n.min })}
              w={220}
            />
          ))}
        </Group>
        <Checkbox
          label="Each next stage waits for a person's approval"
          checked={v.approval}
          onChange={(e) => onChange({ approval: e.currentTarget.checked })}
        />
        <Switch
          label="Send only in a time window"
          checked={w !== null}
          onChange={(e) => onChange({ window: e.currentTarget.checked ? defaultWindow() : null })}
        />
        {w && (
          <Stack gap="xs" role="group" aria-label="Time window">
            <Chip.Group
              multiple
              value={w.days.map(String)}
              onChange={(d) => onChange({ window: { ...w, days: d.map(Number) } })}
            >
              <Group gap={6}>
                {DAYS.map((d, i) => (
                  <Chip key={d} value={String(i)} size="xs">
                    {d}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            <Group gap="sm" align="start">
              {WINDOW_TEXTS.map(({ key, label, placeholder, w: width }) => (
                <TextInput
                  key={key}
                  label={label}
                  placeholder={placeholder}
                  value={w[key]}
                  w={width}
                  onChange={(e) => onChange({ window: { ...w, [key]: e.currentTarget.value } })}
                />
              ))}
            </Group>
            {errors.window && (
              <Text size="sm" c="red" role="alert">
                {errors.window}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
