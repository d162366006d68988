import { ActionIcon, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { stageLabels } from '@fleet/shared/schemas/rollout';

/** The API's most stages after the canary. */
const MAX_STAGES = 10;

interface StagesEditorProps {
  canary: number;
  /** Cumulative percentages, increasing, the last 100. */
  percents: readonly number[];
  onChange(stages: { canary: number; percents: number[] }): void;
  /** Each stage's size from the dry run, in stage order (canary first), when known. */
  sizes?: readonly number[];
  error?: string;
}

/**
 * The stages: a canary of N devices (0: none), then cumulative percentages; the last is always
 * 100 %. A stage is added before the last, halfway to it; each shows its dry-run size.
 */
export function StagesEditor({ canary, percents, onChange, sizes, error }: StagesEditorProps) {
  const labels = stageLabels(canary, percents);
  const offset = canary > 0 ? 1 : 0;
  const sizeOf = (i: number) =>
    sizes?.[i] === undefined ? null : `${sizes[i]} ${sizes[i] === 1 ? 'device' : 'devices'}`;
  const previous = percents[percents.length - 2] ?? 0;
  const set = (i: number, value: number) =>
    onChange({ canary, percents: percents.map((p, j) => (j === i ? value : p)) });
  const add = () => {
    const next = Math.min(99, Math.max(previous + 1, Math.round((previous + 100) / 2)));
    onChange({ canary, percents: [...percents.slice(0, -1), next, 100] });
  };
  return (
    <Stack gap="xs" role="group" aria-label="Stages">
      <Group gap="sm" align="end">
        <NumberInput
          label="Canary devices"
          description="The first stage; 0 for none"
          min={0}
          max={10_000}
          allowDecimal={false}
          value={canary}
          onChange={(v) => onChange({ canary: typeof v === 'number' ? v : 0, percents: [...percents] })}
          w={200}
        />
        {canary > 0 && <StageSize text={sizeOf(0)} />}
      </Group>
      {percents.map((p, i) => {
        const last = i === percents.length - 1;
        return (
          <Group key={i} gap="sm" align="end">
            <NumberInput
              label={`Stage ${i + 1 + offset} (cumulative %)`}
              min={1}
              max={100}
              allowDecimal={false}
              suffix=" %"
              value={p}
              readOnly={last}
              description={last ? 'The last stage reaches every device' : undefined}
              onChange={(v) => set(i, typeof v === 'number' ? v : 0)}
              w={260}
            />
            <StageSize text={sizeOf(i + offset)} />
            {!last && (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove stage ${labels[i + offset]}`}
                onClick={() => onChange({ canary, percents: percents.filter((_, j) => j !== i) })}
                mb={6}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            )}
          </Group>
        );
      })}
      <Group>
        <Button variant="light" size="xs" onClick={add} disabled={percents.length >= MAX_STAGES || previous >= 99}>
          Add stage
        </Button>
      </Group>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function StageSize({ text }: { text: string | null }) {
  return text ? (
    <Text size="sm" c="dimmed" mb={8} data-testid="stage-size">
      {text}
    </Text>
  ) : null;
}
